import GRDB

extension Row {
    /// The value of `column` as `T`, or `nil` when the column is missing, NULL, or holds a value of
    /// another kind.
    ///
    /// GRDB's typed subscripts stop the process on a value they cannot convert (even the optional
    /// ones, on a text where a number was expected); a store written around storekeep may hold
    /// anything, so everything read from a store goes through here or ``required(_:as:table:row:store:)``.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        (self[column] as (any DatabaseValueConvertible)?).flatMap { T.fromDatabaseValue($0.databaseValue) }
    }

    /// The value at `index` as `T`, or `nil` when it is NULL or of another kind (see ``stored(_:as:)``).
    func stored<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) -> T? {
        (self[index] as (any DatabaseValueConvertible)?).flatMap { T.fromDatabaseValue($0.databaseValue) }
    }

    /// The value of `column` as `T`.
    ///
    /// - Parameters:
    ///   - table: the table the row comes from, and `row` what identifies it, for the message.
    ///   - store: the store file.
    /// - Throws: ``StoreError`` `damaged` naming the store, the table, the row and the column when
    ///   the value is NULL or of another kind.
    func required<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self, table: String, row: @autoclosure () -> String,
                                               store: String) throws -> T {
        if let value = stored(column, as: T.self) { return value }
        let found = (self[column] as (any DatabaseValueConvertible)?).map { "\($0.databaseValue)" } ?? "NULL"
        throw StoreError(.damaged, path: store,
                         message: "\(table), \(row()): \(column) holds \(found.prefix(80)), not a \(T.self) value",
                         hint: "the store was written around storekeep; `storekeep check` lists what is damaged; restore the store from a backup")
    }
}
