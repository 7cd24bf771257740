import Foundation

extension SyncStore {
    /// Removes a store's files: the store, its WAL, shared-memory and journal files, and its blob
    /// folder. For a store its creator abandons before anyone else has used it (a migration that
    /// finds its source damaged); no connection may have it open.
    public static func removeFiles(ofStoreAt path: String) {
        let fileManager = FileManager.default
        for suffix in ["", "-wal", "-shm", "-journal"] { try? fileManager.removeItem(atPath: path + suffix) }
        try? fileManager.removeItem(at: BlobStore(storePath: path).directory)
    }
}
