import Foundation
import ObjectModel
import Testing

@Suite("FileContent: the one check of the SQLite header")
struct FileContentTests {
    @Test("16 bytes, NUL included, make a SQLite database; anything shorter or different does not")
    func sqliteHeader() throws {
        let header = Array("SQLite format 3\u{0}".utf8)
        #expect(FileContent.sqliteHeader == header)
        #expect(FileContent.isSQLite(header + [0x10, 0x00]))
        #expect(FileContent.isSQLite(Data(header)))
        #expect(!FileContent.isSQLite(Array("SQLite format 3".utf8)))
        #expect(!FileContent.isSQLite(Array("SQLite format 3X".utf8)))
        #expect(!FileContent.isSQLite([UInt8]()))
        #expect(FileContent.describe(header) == "a SQLite database")
        let path = NSTemporaryDirectory() + "header-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(header + Array(repeating: 0, count: 84)).write(to: URL(fileURLWithPath: path))
        #expect(FileContent.isSQLite(atPath: path))
        #expect(!FileContent.isSQLite(atPath: path + ".missing"))
    }
}
