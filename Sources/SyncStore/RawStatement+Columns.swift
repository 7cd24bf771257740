import Foundation
import GRDBSQLite

extension RawStatement {
    /// The SQLite storage class of column `index` of the current row (`SQLITE_NULL`, `SQLITE_INTEGER`, …).
    func columnType(_ index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    /// Column `index` as an integer (0 for NULL).
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as text, or `nil` for NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
