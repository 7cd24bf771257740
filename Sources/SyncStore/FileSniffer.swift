import Foundation
import ObjectModel

/// Tells what a file looks like from its first bytes, for messages about the wrong kind of file.
enum FileSniffer {
    /// Throws ``StoreError`` `notSQLite` unless the file at `path` starts with the SQLite header.
    static func requireSQLite(at path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw StoreError(.notSQLite, path: path, message: "is a folder, not a store file", hint: "give the path of the store file")
        }
        let prefix = FileContent.firstBytes(of: path, count: 64)
        guard FileContent.isSQLite(prefix) else {
            throw StoreError(.notSQLite, path: path, message: "is not a SQLite database; it looks like \(FileContent.describe(prefix))",
                             hint: "give the path of a storekeep store")
        }
    }
}
