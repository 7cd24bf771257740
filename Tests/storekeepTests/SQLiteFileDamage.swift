import Foundation
import GRDB

/// Damage done to a SQLite file byte by byte, the way a failing disk or a bad copy does, so that
/// the file still opens and its schema still reads.
enum SQLiteFileDamage {
    /// Changes the row id of one row of `table` (which must fit in its root page, as a table of a
    /// few dozen short rows does) to 127, out of order: SQLite then finds other rows depending on
    /// how it reads the table (a scan sees them all, a range of keys stops at the misplaced one).
    static func putRowOutOfOrder(in file: String, table: String, cell: Int = 10) throws {
        let queue = try DatabaseQueue(path: file)
        let (root, pageSize) = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [table]) ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        try queue.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let page = (root - 1) * pageSize
        guard root > 0, bytes.count >= page + pageSize, bytes[page] == 0x0D else {
            throw StorekeepProcess.HarnessError(description: "\(table) of \(file) is not a single leaf page")
        }
        let cells = Int(bytes[page + 3]) << 8 | Int(bytes[page + 4])
        guard cell < cells else { throw StorekeepProcess.HarnessError(description: "\(table) has only \(cells) rows") }
        let pointer = page + 8 + 2 * cell
        let offset = page + (Int(bytes[pointer]) << 8 | Int(bytes[pointer + 1]))
        // A cell of a table leaf: the payload size, then the row id, each a varint (one byte when small).
        guard bytes[offset] < 0x80, bytes[offset + 1] < 0x7F else {
            throw StorekeepProcess.HarnessError(description: "row \(cell) of \(table) has no one-byte row id")
        }
        bytes[offset + 1] = 0x7F
        try bytes.write(to: URL(fileURLWithPath: file))
    }
}
