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

    /// How long a commit waits for readers while appending (``beginAppending()``), and otherwise
    /// (``configuration(readOnly:)``), in milliseconds.
    static let appendingBusyMilliseconds = 60_000
    static let busyMilliseconds = 5_000

    /// Writes the next commits through a rollback journal instead of the WAL, until
    /// ``endAppending()``: the loading phase of a bulk load into a new store.
    ///
    /// A load into a new store appends pages. Through the WAL each page is written twice (into
    /// the WAL, then copied into the store by a checkpoint, which reads it back first); through a
    /// rollback journal (`journal_mode = TRUNCATE`) a page the transaction appends is written once,
    /// and the journal holds only the few pages that existed before it (the ends of the tables and
    /// their interior pages). Every commit still syncs (`synchronous = FULL`): a killed process or
    /// a power failure leaves either the whole batch or none, and the next connection that writes
    /// rolls an unfinished one back from the journal. Meanwhile a reader waits while a batch
    /// commits, instead of reading beside it, and a commit waits (up to a minute) for readers.
    ///
    /// - Returns: whether the switch was made; it is not while another connection has the store
    ///   open (the load then goes on through the WAL).
    /// - Throws: ``StoreError`` when SQLite fails otherwise.
    @discardableResult
    public func beginAppending() throws -> Bool {
        guard !isReadOnly else { return false }
        do {
            return try database.writeWithoutTransaction { db in
                guard try String.fetchOne(db, sql: "PRAGMA main.journal_mode = TRUNCATE")?.lowercased() == "truncate" else { return false }
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // A commit now waits for readers to finish (a nightly check of the folder, say): wait up to a minute.
                _ = try Int.fetchOne(db, sql: "PRAGMA busy_timeout = \(Self.appendingBusyMilliseconds)")
                return true
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return false
        } catch {
            throw StoreError.wrapping(error, path: path, action: "prepare the bulk load")
        }
    }

    /// Returns the store to WAL mode with the bulk-load settings (``beginBulkLoad()``): after it
    /// other connections read beside this one again, as the verification of a migration does
    /// while the indexes are built. Does nothing harmful when the store is already in WAL mode,
    /// and is what a resumed migration relies on when a killed one left the store in journal mode.
    ///
    /// - Throws: ``StoreError`` `busy` when SQLite cannot switch (another connection holds the
    ///   store), `io` otherwise.
    public func endAppending() throws {
        guard !isReadOnly else { return }
        let mode: String?
        do {
            mode = try database.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA main.journal_mode = WAL") }
        } catch {
            throw StoreError.wrapping(error, path: path, action: "return the store to WAL mode")
        }
        _ = try? database.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout = \(Self.busyMilliseconds)") }
        guard mode?.lowercased() == "wal" else {
            throw StoreError(.busy, path: path, message: "the store stayed in journal mode '\(mode ?? "?")' instead of returning to WAL mode",
                             hint: "make sure no other process has the store open, then run the same command again")
        }
        try beginBulkLoad()
    }

    /// The store's journal mode as SQLite reports it (`wal`, `truncate`, …), for tests.
    func journalMode() throws -> String {
        try database.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA main.journal_mode") ?? "" }
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
