import CSystemCalls

extension SyncStore {
    /// Turns SQLite's memory statistics off for this process, once, if SQLite has not been used
    /// yet; later calls do nothing.
    ///
    /// With the statistics on (the system library's default), every allocation and free SQLite
    /// makes takes a process-wide mutex to count itself: about 4% of the instructions of the
    /// thread that commits a migration's batches. storekeep reads none of the statistics (no
    /// `sqlite3_memory_used`, no soft heap limit). Store creation and opening call this; a
    /// program that opens other SQLite files first (a Core Data source) should call it before.
    public static func prepareSQLite() {
        _ = sqliteStatisticsTurnedOff
    }

    /// The page size of the stores this version creates, in bytes (SQLite's default is 4,096; a
    /// store made earlier keeps its own, which SQLite reads from the file).
    ///
    /// A migration writes, checkpoints, sorts for its indexes and verifies hundreds of megabytes
    /// through one system call per page: with 16 KiB pages a million-speech migration made 414,000
    /// `pread`/`pwrite` calls instead of 992,000, and ran 6% (property list) to 10% (Core Data)
    /// faster in alternating runs. The page cache is sized in bytes, so memory does not change.
    public static let pageSize = 16_384

    /// Whether SQLite accepted the setting (it refuses once it has been initialised).
    static let sqliteStatisticsTurnedOff: Bool = storekeep_sqlite_disable_memory_statistics() == 0
}
