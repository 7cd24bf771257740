import GRDB

extension Row {
    /// The value of `column` as `T`, or `nil` when the column is missing, NULL, or holds a value of
    /// another kind.
    ///
    /// GRDB's typed subscripts stop the process on a value they cannot convert (even the optional
    /// ones: a text where a number was expected); `check` reads stores written around storekeep,
    /// so every value it reads goes through here.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        (self[column] as (any DatabaseValueConvertible)?).flatMap { T.fromDatabaseValue($0.databaseValue) }
    }

    /// The value of `column` as it is stored (NULL when the column is missing).
    func storedValue(_ column: String) -> DatabaseValue {
        (self[column] as (any DatabaseValueConvertible)?)?.databaseValue ?? .null
    }
}
