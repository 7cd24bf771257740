import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import SyncStore

/// The raw statement binds text and bytes from an area of its own without SQLite copying them:
/// every row must still read back exactly what was bound, whatever the sizes, and a parameter not
/// bound again after ``RawStatement/reset()`` is NULL, never a value of an earlier row.
@Suite struct RawStatementTests {
    @Test func rowsOfEverySizeReadBackAsBound() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.path("raw.sqlite"))
        var expected: [(String, Data)] = []
        var generator = SystemRandomNumberGenerator()
        for index in 0..<400 {
            // Mostly small values, some larger than the whole area, some filling it up exactly.
            let textLength = index.isMultiple(of: 37) ? RawStatement.areaCapacity + 5 : Int.random(in: 0...3_000, using: &generator)
            let dataLength = index.isMultiple(of: 41) ? RawStatement.areaCapacity - textLength : Int.random(in: 0...9_000, using: &generator)
            var text = String((0..<textLength).map { _ in "abcdéf€ \n".randomElement(using: &generator)! })
            if index.isMultiple(of: 11) { text += "\u{0}tail" }
            let data = Data((0..<max(dataLength, 0)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            expected.append((text, data))
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, text, data, spare)")
            let statement = try RawStatement("INSERT INTO t (id, text, data, spare) VALUES (?, ?, ?, ?)", db: db, path: "raw.sqlite")
            for (index, (text, data)) in expected.enumerated() {
                statement.reset()
                statement.bind(1, Int64(index))
                statement.bind(2, text)
                statement.bind(3, data)
                if index == 0 { statement.bind(4, "bound to the first row only") }
                #expect(statement.execute() == SQLITE_DONE)
            }
        }
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, text, data, spare FROM t ORDER BY id")
            #expect(rows.count == expected.count)
            for (row, (text, data)) in zip(rows, expected) {
                let id: Int = row[0]
                if text.utf8.contains(0) {
                    #expect(row[1] as Data? == Data(text.utf8), "row \(id): text with U+0000 is kept as its bytes")
                } else {
                    #expect(row[1] as String? == text, "row \(id)")
                }
                #expect(row[2] as Data? == data, "row \(id)")
                #expect(row[3] as String? == (id == 0 ? "bound to the first row only" : nil), "row \(id): reset clears earlier bindings")
            }
        }
    }
}
