import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement driven through the SQLite C API, for the bulk paths (batch import, the
/// digest pass) where GRDB's per-value wrappers cost more than SQLite's own work.
///
/// Owned by one connection and used only inside one database access; finalized on deinit.
final class RawStatement {
    /// The SQLite handle.
    let handle: OpaquePointer
    private let path: String

    /// Prepares `sql` on `db`'s connection.
    init(_ sql: String, db: Database, path: String) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_finalize(prepared)
            throw StoreError(.io, path: path, message: "cannot prepare a statement: \(message)")
        }
        handle = prepared
        self.path = path
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears the bindings of the previous row.
    func reset() {
        sqlite3_reset(handle)
    }

    /// Binds NULL.
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    /// Binds an integer.
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

    /// Binds a real.
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    /// Binds text (copied by SQLite); text holding U+0000 is bound as its UTF-8 bytes in a BLOB,
    /// as ``ValueCoder`` stores it, because TEXT is read back as a C string.
    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                sqlite3_bind_text(handle, index, "", 0, rawStatementTransient)
                return
            }
            if memchr(base, 0, utf8.count) != nil {
                sqlite3_bind_blob(handle, index, base, Int32(utf8.count), rawStatementTransient)
            } else {
                sqlite3_bind_text(handle, index, base, Int32(utf8.count), rawStatementTransient)
            }
        }
    }

    /// Binds bytes.
    func bind(_ index: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), rawStatementTransient)
        }
    }

    /// Runs a statement that returns no rows.
    ///
    /// - Returns: SQLite's result code (`SQLITE_DONE` on success) for the caller to judge.
    @discardableResult
    func execute() -> Int32 {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        return code
    }

    /// Steps to the next row: `true` with a row, `false` at the end.
    ///
    /// - Throws: ``StoreError`` `io` with SQLite's message on failure.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw StoreError(.io, path: path, message: "SQLite failed: \(String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))")
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let rawStatementTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
