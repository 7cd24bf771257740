import Foundation
import GRDB

/// The migration path into a store: one migration run loading records in batches, each committed
/// with its history and its stream's checkpoint, so that a killed run resumes exactly where it
/// stopped. What an app saving records never needs is here rather than on ``SyncStore``: batch
/// imports, copies SQLite makes from an attached source, checkpoints, the journal switch, the
/// deferred index build.
///
/// ```swift
/// let store = try SyncStore.create(at: target, model: model, contentName: "SpeechTimer", deferIndexes: true)
/// let load = try store.beginBulkLoad(key: key, version: "2", description: "plist → SpeechTimer 2", source: path,
///                                    checksum: mappingChecksum, author: "storekeep.migrate", commits: .appending)
/// var checkpoint = try load.checkpoints()["speeches"] ?? MigrationCheckpoint(stream: "speeches", position: -1, rows: 0, rejected: 0)
/// for batch in batches {
///     checkpoint.position = batch.lastPosition
///     checkpoint.rows += batch.records.count
///     try load.importBatch(batch.records, checkpoint: checkpoint)
/// }
/// try load.endAppending()
/// try load.buildIndexes()
/// try load.finish(success: true)
/// ```
public final class BulkLoad: Sendable {
    /// How the load's commits reach the disk.
    public enum Commits: Hashable, Sendable {
        /// As every other write: each commit waits for the disk, through the WAL.
        case durable
        /// Commits do not wait for the disk (`synchronous = NORMAL`), and the WAL is copied into the
        /// store every ``SyncStore/bulkLoadCheckpointPages`` pages instead of 1,000. In WAL mode every
        /// commit stays atomic: a killed process loses nothing committed, and after a power failure
        /// the store is consistent but may lack its last commits, which a resumed run reads again
        /// from its checkpoints.
        case fast
        /// ``fast``, and the batches are written through a rollback journal instead of the WAL until
        /// ``BulkLoad/endAppending()`` (`docs/format.md`, "Bulk loading"): a load into a new store
        /// appends pages, which the WAL would write twice. Every commit then syncs again. Not made
        /// while another connection has the store open (``BulkLoad/switchedToJournal``).
        case appending
    }

    /// The store being loaded.
    public let store: SyncStore
    /// The migration run (begun, or an unfinished one with the same key resumed).
    public let run: MigrationRecord
    /// The history author of the load's transactions.
    public let author: String
    /// How the load's commits reach the disk.
    public let commits: Commits
    /// Whether ``Commits/appending`` switched the store to a rollback journal when the load began.
    public let switchedToJournal: Bool

    init(store: SyncStore, run: MigrationRecord, author: String, commits: Commits, switchedToJournal: Bool) {
        self.store = store
        self.run = run
        self.author = author
        self.commits = commits
        self.switchedToJournal = switchedToJournal
    }

    /// The run's checkpoints, by stream (``SyncStore/checkpoints(migration:)``).
    public func checkpoints() throws -> [String: MigrationCheckpoint] {
        try store.checkpoints(migration: run.id)
    }

    /// The records the run rejected, in the order they were met (``SyncStore/rejections(migration:)``).
    public func rejections() throws -> [MigrationRejection] {
        try store.rejections(migration: run.id)
    }

    /// Returns the store from the rollback journal to WAL mode, with the ``Commits/fast`` settings:
    /// after it other connections read beside this one again, as the verification of a migration
    /// does while the indexes are built. Does nothing harmful when the store is already in WAL
    /// mode, and is what a resumed run relies on when a killed one left the store in journal mode.
    ///
    /// - Throws: ``StoreError`` `busy` when SQLite cannot switch (another connection holds the
    ///   store), `io` otherwise.
    public func endAppending() throws {
        try store.switchBackToWAL()
        try store.applyBulkLoadSettings()
    }

    /// Builds the indexes a load into a new store left out (``SyncStore/create(at:model:contentName:peerID:accountToken:deferIndexes:seedConfiguration:)``
    /// with `deferIndexes`), in one transaction, and clears the mark; does nothing when none are pending.
    ///
    /// SQLite sorts the keys of each index once, which is what makes the load fast.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` naming the global IDs that more than one record
    ///   holds (nothing is changed: the store keeps its mark); `io` when SQLite fails.
    public func buildIndexes() throws {
        try store.buildPendingIndexes()
    }

    /// Ends the load: restores the store's ordinary commit settings and records the run as
    /// finished, successful or not (an unsuccessful run is never resumed).
    public func finish(success: Bool) throws {
        if commits != .durable {
            if success { try store.restoreOrdinarySettings() } else { try? store.restoreOrdinarySettings() }
        }
        try store.writeOrWrap("finish a migration") { db in
            try db.execute(sql: "UPDATE sk_migration SET finished = ?, success = ? WHERE id = ?",
                           arguments: [Date().timeIntervalSince1970, success ? 1 : 0, run.id])
        }
    }
}
