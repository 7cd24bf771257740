import GRDB

extension SyncStore {
    /// Pages the WAL may hold before a commit copies it into the store during a bulk load
    /// (SQLite's default is 1,000): up to 160 MiB of disk with 16 KiB pages (``pageSize``), no memory.
    static let bulkLoadCheckpointPages = 10_000

    /// Switches this connection to bulk-load settings until ``endBulkLoad()``.
    ///
    /// - Commits do not wait for the disk (`synchronous = NORMAL`). In WAL mode every commit stays
    ///   atomic: a killed process loses nothing committed, and after a power failure the store is
    ///   consistent but may lack its last commits, which a migration, whose checkpoint commits with
    ///   each batch, simply reads again.
    /// - The WAL is copied into the store every ``bulkLoadCheckpointPages`` pages instead of 1,000:
    ///   ten times fewer syncs, and the pages each batch rewrites (the ends of the tables, the
    ///   history's last pages) are copied once per checkpoint rather than once per batch.
    ///
    /// - Throws: ``StoreError`` when SQLite refuses the settings.
    public func beginBulkLoad() throws {
        try setConnectionPragmas(synchronous: "NORMAL", checkpointPages: Self.bulkLoadCheckpointPages, action: "prepare the bulk load")
    }

    /// Restores the ordinary settings (`synchronous = FULL`, a checkpoint every 1,000 pages).
    ///
    /// - Throws: ``StoreError`` when SQLite refuses the settings.
    public func endBulkLoad() throws {
        try setConnectionPragmas(synchronous: "FULL", checkpointPages: 1_000, action: "end the bulk load")
    }

    private func setConnectionPragmas(synchronous: String, checkpointPages: Int, action: String) throws {
        guard !isReadOnly else { return }
        do {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            }
        } catch {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }

    /// This connection's `synchronous` level (0 off, 1 normal, 2 full) and WAL auto-checkpoint,
    /// for tests.
    func connectionPragmas() throws -> (synchronous: Int, checkpointPages: Int) {
        try database.writeWithoutTransaction { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1, try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1)
        }
    }
}
