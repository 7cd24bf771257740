import Foundation

/// What a store's files look like from outside: used to open a store no process has open without
/// creating its `-wal`/`-shm`, and to prove afterwards that nobody wrote to it meanwhile.
struct StoreFileState: Equatable {
    /// Size of the main file.
    var size: UInt64
    /// Its modification time.
    var modified: Date?
    /// Its inode.
    var inode: UInt64
    /// Whether `-wal` exists.
    var hasWAL: Bool
    /// Whether `-shm` exists.
    var hasSharedMemory: Bool

    /// The state of the store at `path` now, or `nil` when its main file cannot be read.
    init?(path: String) {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path) else { return nil }
        size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        modified = attributes[.modificationDate] as? Date
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        hasWAL = manager.fileExists(atPath: path + "-wal")
        hasSharedMemory = manager.fileExists(atPath: path + "-shm")
    }

    /// No `-wal` and no `-shm`: no process has the store open (SQLite removes both when the last
    /// connection closes cleanly), so it can be read as an immutable file.
    var isClosed: Bool { !hasWAL && !hasSharedMemory }
}
