import Foundation

/// Says what a file probably is from its first bytes, for messages about a file of the wrong kind
/// ("… is not a SQLite database; it looks like an XML property list").
///
/// ```swift
/// FileContent.describe(FileContent.firstBytes(of: path))   // "a gzip file"
/// ```
public enum FileContent {
    /// Up to `count` bytes from the start of the file (empty when it cannot be read).
    public static func firstBytes(of path: String, count: Int = 512) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    /// The 16 bytes every SQLite 3 database starts with: `SQLite format 3` and a NUL.
    public static let sqliteHeader: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// Whether `prefix`, a file's first bytes, starts with the SQLite header: storekeep's one
    /// check that a file is a SQLite database (16 bytes; fewer is never one).
    ///
    /// ```swift
    /// FileContent.isSQLite(FileContent.firstBytes(of: path, count: 16))
    /// ```
    public static func isSQLite(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: sqliteHeader)
    }

    /// Whether the file at `path` starts with the SQLite header (`false` when it cannot be read).
    public static func isSQLite(atPath path: String) -> Bool {
        isSQLite(firstBytes(of: path, count: sqliteHeader.count))
    }

    /// A few words, with an article, on what a file starting with `prefix` probably is.
    public static func describe(_ prefix: [UInt8]) -> String {
        if prefix.isEmpty { return "an empty file" }
        if isSQLite(prefix) { return "a SQLite database" }
        if prefix.starts(with: Array("bplist".utf8)) { return "a binary property list" }
        var text = String(decoding: prefix, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist") {
            return text.contains("plist") ? "an XML property list" : "an XML document"
        }
        if prefix.starts(with: [0x1f, 0x8b]) { return "a gzip file" }
        if prefix.starts(with: [0x50, 0x4b, 0x03, 0x04]) { return "a zip archive" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON or other text" }
        if prefix.allSatisfy({ $0 == 0x09 || $0 == 0x0a || $0 == 0x0d || (0x20..<0x7f).contains($0) }) { return "a text file" }
        return "binary data of an unknown kind"
    }
}
