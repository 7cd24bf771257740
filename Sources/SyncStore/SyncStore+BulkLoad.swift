import Foundation
import GRDB

extension SyncStore {
    /// Pages the WAL may hold before a commit copies it into the store during a bulk load with
    /// ``BulkLoad/Commits/fast`` commits (SQLite's default is 1,000): up to 160 MiB of disk with
    /// 16 KiB pages (``pageSize``), no memory.
    public static let bulkLoadCheckpointPages = 10_000

    /// How long a commit waits for readers while appending (``BulkLoad/Commits/appending``), and
    /// otherwise (``configuration(readOnly:)``), in milliseconds.
    static let appendingBusyMilliseconds = 60_000
    static let busyMilliseconds = 5_000

    /// Begins a bulk load: starts a migration run, or resumes the unfinished run with the same
    /// `key`, after switching this connection to the `commits` settings.
    ///
    /// ```swift
    /// let load = try store.beginBulkLoad(key: key, version: "2", description: "seed set", source: path,
    ///                                    checksum: checksum, author: "storekeep.seed-store")
    /// try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "seed set", position: 0, rows: records.count, rejected: 0))
    /// try load.finish(success: true)
    /// ```
    ///
    /// - Parameters:
    ///   - key: what identifies the same run again (a source fingerprint, a mapping checksum, a model hash).
    ///   - version: a label, such as the target model version.
    ///   - source: the source as given.
    ///   - checksum: of the mapping or step files applied.
    ///   - files: those files, with their checksums; kept for `check` to compare later.
    ///   - author: the history author of the load's transactions.
    ///   - commits: how the load's commits reach the disk (``BulkLoad/Commits``).
    /// - Throws: ``StoreError``; `invalidRequest` on a store opened read-only.
    public func beginBulkLoad(key: String, version: String, description: String, source: String, checksum: String, files: [MigrationFile] = [],
                              author: String, commits: BulkLoad.Commits = .durable) throws -> BulkLoad {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        var switched = false
        if commits != .durable { try applyBulkLoadSettings() }
        if commits == .appending { switched = try switchToRollbackJournal() }
        let id: Int64 = try writeOrWrap("start a migration") { db in
            if let open = try Int64.fetchOne(db, sql: "SELECT id FROM sk_migration WHERE key = ? AND finished IS NULL ORDER BY id DESC LIMIT 1", arguments: [key]) {
                return open
            }
            try db.execute(sql: "INSERT INTO sk_migration (key, version, description, source, checksum, started) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [key, version, description, source, checksum, Date().timeIntervalSince1970])
            let run = db.lastInsertedRowID
            if !files.isEmpty {
                try StoreSchema.createMigrationFileTable(in: db)
                for file in files {
                    try db.execute(sql: "INSERT OR REPLACE INTO sk_migration_file (migration, path, checksum) VALUES (?, ?, ?)",
                                   arguments: [run, file.path, file.checksum])
                }
            }
            return run
        }
        guard let run = try migrations().first(where: { $0.id == id }) else {
            throw StoreError(.damaged, path: path, message: "migration run \(id) vanished from sk_migration")
        }
        return BulkLoad(store: self, run: run, author: author, commits: commits, switchedToJournal: switched)
    }

    /// Switches this connection to the settings of ``BulkLoad/Commits/fast``.
    ///
    /// - Throws: ``StoreError`` when SQLite refuses the settings.
    func applyBulkLoadSettings() throws {
        try setConnectionPragmas(synchronous: "NORMAL", checkpointPages: Self.bulkLoadCheckpointPages, action: "prepare the bulk load")
    }

    /// Writes the next commits through a rollback journal instead of the WAL, until
    /// ``switchBackToWAL()``: the loading phase of a bulk load into a new store.
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
    func switchToRollbackJournal() throws -> Bool {
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

    /// Returns the store to WAL mode and this connection to the ordinary busy timeout.
    ///
    /// - Throws: ``StoreError`` `busy` when SQLite cannot switch (another connection holds the
    ///   store), `io` otherwise.
    func switchBackToWAL() throws {
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
    }

    /// The store's journal mode as SQLite reports it (`wal`, `truncate`, …), for tests.
    func journalMode() throws -> String {
        try database.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA main.journal_mode") ?? "" }
    }

    /// Restores the ordinary settings (`synchronous = FULL`, a checkpoint every 1,000 pages).
    ///
    /// - Throws: ``StoreError`` when SQLite refuses the settings.
    func restoreOrdinarySettings() throws {
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
