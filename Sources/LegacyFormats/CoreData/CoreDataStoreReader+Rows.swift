import GRDB
import GRDBSQLite

extension CoreDataStoreReader {
    /// Runs a query of the caller's over the store (read-only: the connection refuses writes) and
    /// calls `body` with the statement at each row, for reading the columns through the SQLite C
    /// API, until the rows end or `body` returns `false`. Tables are those of
    /// ``storage(of:)``; integer arguments are bound to `?` in order.
    ///
    /// `body` runs inside the database access: it must not use the reader again.
    ///
    /// - Throws: ``CoreDataStoreError`` `.ioFailure` when SQLite refuses the query or fails, and
    ///   whatever `body` throws.
    public func forEachRow(sql: String, arguments: [Int64] = [], _ body: (OpaquePointer) throws -> Bool) throws {
        do {
            try queue.read { db in try Self.forEachRow(in: db, sql: sql, arguments: arguments, body) }
        } catch let error as DatabaseError {
            throw Self.readingError(error, path: path, what: "read rows")
        }
    }

    /// Prepares `sql` on `db`'s connection through the C API, binds `arguments` to its `?` in order
    /// and calls `body` at each row until the rows end or it returns `false`.
    ///
    /// - Throws: `DatabaseError` when SQLite refuses the query or fails, and whatever `body` throws.
    static func forEachRow(in db: Database, sql: String, arguments: [Int64], _ body: (OpaquePointer) throws -> Bool) throws {
        var handle: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &handle, nil)
        defer { sqlite3_finalize(handle) }
        guard prepared == SQLITE_OK, let statement = handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: prepared), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        for (index, argument) in arguments.enumerated() { sqlite3_bind_int64(statement, Int32(index + 1), argument) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            if try !body(statement) { return }
        }
    }
}
