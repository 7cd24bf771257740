import GRDB

extension Row {
    /// The value at `index` as `T`, or `nil` when it is NULL or holds a value of another kind.
    ///
    /// GRDB's typed subscripts stop the process on a value they cannot convert (even the optional
    /// ones: a text where a number was expected); a Core Data store from a user's device may hold
    /// anything, so its values are read through here.
    func stored<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) -> T? {
        (self[index] as (any DatabaseValueConvertible)?).flatMap { Self.converted($0.databaseValue) }
    }

    /// The value of `column` as `T`, or `nil` when the column is missing, NULL, or of another kind.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        (self[column] as (any DatabaseValueConvertible)?).flatMap { Self.converted($0.databaseValue) }
    }

    /// A real is read as an integer only when it is a whole number (GRDB gives 1 for 1.5).
    private static func converted<T: DatabaseValueConvertible>(_ value: DatabaseValue) -> T? {
        guard case .double(let number) = value.storage, T.self is any BinaryInteger.Type else { return T.fromDatabaseValue(value) }
        return Int64(exactly: number).flatMap { T.fromDatabaseValue($0.databaseValue) }
    }
}
