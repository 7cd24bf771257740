import Foundation

/// Tells what a file looks like from its first bytes, for messages about the wrong kind of file.
enum FileSniffer {
    /// The first bytes of every SQLite 3 database.
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// Throws ``StoreError`` `notSQLite` unless the file at `path` starts with the SQLite header.
    static func requireSQLite(at path: String) throws {
        let prefix = firstBytes(of: path, count: 64)
        guard prefix.starts(with: sqliteHeader) else {
            throw StoreError(.notSQLite, path: path, message: "is not a SQLite database; it looks like \(describe(prefix))",
                             hint: "give the path of a storekeep store")
        }
    }

    /// Up to `count` bytes from the start of the file (empty when unreadable).
    static func firstBytes(of path: String, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    /// A few words on what a file starting with `prefix` probably is.
    static func describe(_ prefix: [UInt8]) -> String {
        if prefix.isEmpty { return "an empty or unreadable file" }
        if prefix.starts(with: Array("bplist".utf8)) { return "a binary property list" }
        let text = String(decoding: prefix, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist") {
            return text.contains("plist") ? "an XML property list" : "an XML document"
        }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON or text" }
        if prefix.starts(with: [0x1f, 0x8b]) { return "a gzip file" }
        if prefix.starts(with: [0x50, 0x4b, 0x03, 0x04]) { return "a zip archive" }
        if prefix.allSatisfy({ $0 == 0x09 || $0 == 0x0a || $0 == 0x0d || (0x20..<0x7f).contains($0) }) { return "a text file" }
        return "binary data of an unknown kind"
    }
}
