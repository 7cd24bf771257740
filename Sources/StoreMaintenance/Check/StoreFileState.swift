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
    /// Whether a non-empty `-journal` exists: a migration loading the store writes through a
    /// rollback journal, and one killed part-way leaves the journal SQLite rolls back from.
    var hasJournal: Bool

    /// The state of the store at `path` now, or `nil` when its main file cannot be read.
    init?(path: String) {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path) else { return nil }
        size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        modified = attributes[.modificationDate] as? Date
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        hasWAL = manager.fileExists(atPath: path + "-wal")
        hasSharedMemory = manager.fileExists(atPath: path + "-shm")
        let journalSize = (try? manager.attributesOfItem(atPath: path + "-journal"))?[.size] as? NSNumber
        hasJournal = (journalSize?.uint64Value ?? 0) > 0
    }

    /// No `-wal`, no `-shm` and no journal to roll back: no process has the store open (SQLite
    /// removes the first two when the last connection closes cleanly), and the file holds only
    /// committed pages, so it can be read as an immutable file (which would ignore a journal).
    var isClosed: Bool { !hasWAL && !hasSharedMemory && !hasJournal }
}
