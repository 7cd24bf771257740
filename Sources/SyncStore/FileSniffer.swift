import Foundation
import ObjectModel

/// Tells what a file looks like from its first bytes, for messages about the wrong kind of file.
enum FileSniffer {
    /// The first bytes of every SQLite 3 database.
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// Throws ``StoreError`` `notSQLite` unless the file at `path` starts with the SQLite header.
    static func requireSQLite(at path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw StoreError(.notSQLite, path: path, message: "is a folder, not a store file", hint: "give the path of the store file")
        }
        let prefix = FileContent.firstBytes(of: path, count: 64)
        guard prefix.starts(with: sqliteHeader) else {
            throw StoreError(.notSQLite, path: path, message: "is not a SQLite database; it looks like \(FileContent.describe(prefix))",
                             hint: "give the path of a storekeep store")
        }
    }
}
