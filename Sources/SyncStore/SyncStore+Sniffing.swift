import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Whether the file at `path` is a storekeep store: a SQLite database with `sk_metadata`
    /// (read without writing anything; `false` for anything unreadable).
    public static func isStore(at path: String) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
              FileContent.isSQLite(atPath: path) else { return false }
        prepareSQLite()
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration(readOnly: true)) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { try $0.tableExists("sk_metadata") }) ?? false
    }
}
