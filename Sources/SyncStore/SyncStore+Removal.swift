import Foundation

extension SyncStore {
    /// Removes a store's files: the store, its WAL, shared-memory and journal files, and its blob
    /// folder. For a store its creator abandons before anyone else has used it (a migration that
    /// finds its source damaged, into a path where ``existingFiles(ofStoreAt:)`` found nothing);
    /// nothing may still be writing it.
    public static func removeFiles(ofStoreAt path: String) {
        let fileManager = FileManager.default
        for file in files(ofStoreAt: path) { try? fileManager.removeItem(atPath: file) }
    }

    /// Which of a store's files (the store, its WAL, shared-memory and journal files, its blob
    /// folder) exist at `path`.
    public static func existingFiles(ofStoreAt path: String) -> [String] {
        files(ofStoreAt: path).filter { FileManager.default.fileExists(atPath: $0) }
    }

    private static func files(ofStoreAt path: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { path + $0 } + [BlobStore(storePath: path).directory.path]
    }
}
