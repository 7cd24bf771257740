import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement driven through the SQLite C API, for the bulk paths (batch import, the
/// digest pass) where GRDB's per-value wrappers cost more than SQLite's own work.
///
/// Text and bytes are copied into an area of the statement's own and bound from there without
/// SQLite copying them again (`SQLITE_STATIC`): binding with `SQLITE_TRANSIENT` made SQLite
/// allocate, copy and free each value, thousands of times per batch. The area is reused from
/// ``reset()``, which also clears every binding, so a value bound to an earlier row is never
/// read from reused memory. A value that does not fit in what is left of the area is bound with
/// `SQLITE_TRANSIENT` as before.
///
/// Owned by one connection and used only inside one database access; finalized on deinit.
final class RawStatement {
    /// The SQLite handle.
    let handle: OpaquePointer
    private let path: String
    /// Where the current row's text and bytes are kept while bound.
    private let area: UnsafeMutableRawPointer
    /// The size of ``area``: a row of ordinary values fits; a larger value is copied by SQLite.
    static let areaCapacity = 16 << 10
    /// How much of ``area`` the current row uses.
    @exclusivity(unchecked) private var areaUsed = 0
    /// The first error a bind of the current row met (`SQLITE_TOOBIG` for a value over SQLite's
    /// limit): the row is then not written, and ``execute()`` or ``step()`` reports it.
    @exclusivity(unchecked) private var bindFailure = SQLITE_OK

    /// Prepares `sql` on `db`'s connection.
    init(_ sql: String, db: Database, path: String) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_finalize(prepared)
            // Through the common mapping: a missing table is a damaged store (65), not a disk failure.
            throw StoreError.wrapping(DatabaseError(resultCode: ResultCode(rawValue: code), message: message), path: path,
                                      action: "prepare a statement")
        }
        handle = prepared
        self.path = path
        area = UnsafeMutableRawPointer.allocate(byteCount: Self.areaCapacity, alignment: 16)
    }

    deinit {
        sqlite3_finalize(handle)
        area.deallocate()
    }

    /// Starts a new row: resets the statement, clears every binding (each parameter is NULL
    /// until bound again) and reuses the value area.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        areaUsed = 0
        bindFailure = SQLITE_OK
    }

    private func note(_ code: Int32) {
        if code != SQLITE_OK, bindFailure == SQLITE_OK { bindFailure = code }
    }

    /// Binds NULL.
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    /// Binds an integer.
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

    /// Binds a real.
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    /// Binds text; text holding U+0000 is bound as its UTF-8 bytes in a BLOB, as ``ValueCoder``
    /// stores it, because TEXT is read back as a C string.
    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                sqlite3_bind_text(handle, index, "", 0, rawStatementTransient)
                return
            }
            let (bytes, destructor) = kept(base, count: utf8.count)
            // The 64-bit forms: a length over 2 GiB is SQLite's to refuse (SQLITE_TOOBIG), not a trap here.
            if memchr(base, 0, utf8.count) != nil {
                note(sqlite3_bind_blob64(handle, index, bytes, sqlite3_uint64(utf8.count), destructor))
            } else {
                note(sqlite3_bind_text64(handle, index, bytes.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count), destructor,
                                         UInt8(SQLITE_UTF8)))
            }
        }
    }

    /// Binds bytes.
    func bind(_ index: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                sqlite3_bind_blob(handle, index, UnsafeRawPointer(bitPattern: 1), 0, rawStatementTransient)
                return
            }
            let (kept, destructor) = kept(base, count: bytes.count)
            note(sqlite3_bind_blob64(handle, index, kept, sqlite3_uint64(bytes.count), destructor))
        }
    }

    /// `count` bytes at `base` copied into the value area, to bind without a copy by SQLite; or,
    /// when they do not fit, `base` itself for SQLite to copy.
    private func kept(_ base: UnsafeRawPointer, count: Int) -> (UnsafeRawPointer, sqlite3_destructor_type?) {
        guard count <= Self.areaCapacity - areaUsed else { return (base, rawStatementTransient) }
        let target = area + areaUsed
        target.copyMemory(from: base, byteCount: count)
        areaUsed += count
        return (UnsafeRawPointer(target), nil)  // nil is SQLITE_STATIC
    }

    /// Runs a statement that returns no rows.
    ///
    /// - Returns: SQLite's result code (`SQLITE_DONE` on success) for the caller to judge.
    @discardableResult
    func execute() -> Int32 {
        if bindFailure != SQLITE_OK {
            sqlite3_reset(handle)
            return bindFailure
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        return code
    }

    /// Steps to the next row: `true` with a row, `false` at the end.
    ///
    /// - Throws: ``StoreError`` `io` with SQLite's message on failure.
    func step() throws -> Bool {
        let code = bindFailure != SQLITE_OK ? bindFailure : sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw StoreError(.io, path: path, message: "SQLite failed: \(String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))")
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let rawStatementTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
