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

    /// Whether SQLite accepted the setting (it refuses once it has been initialised).
    static let sqliteStatisticsTurnedOff: Bool = storekeep_sqlite_disable_memory_statistics() == 0
}
