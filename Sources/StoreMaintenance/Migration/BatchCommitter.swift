import Foundation
import SyncStore

/// Commits a migration's batches on a thread of its own, so that reading and converting the next
/// batch overlaps with SQLite writing this one (the machine has at least two cores to give).
///
/// At most one batch is being written while the caller fills the next: ``submit(_:)`` waits for the
/// previous batch to be committed, which bounds memory to two batches. Batches commit in the order
/// submitted, each with its checkpoint, so a killed run resumes exactly as a single-threaded one would.
///
/// The committing thread also digests the records (the checkpoint's running sum of their lines,
/// which verification compares with the store at the end): with blob files made on the reading
/// thread, that thread is the busier of the two.
///
/// ```swift
/// let committer = BatchCommitter(store: store, author: Migrator.author, migration: run.id, digest: checkpoint.digest)
/// try committer.submit(.init(records: records, rejections: [], checkpoint: checkpoint))
/// try committer.finish()   // waits for the last batch; rethrows the first failure
/// ```
final class BatchCommitter: @unchecked Sendable {
    /// One batch: its records, its rejected records and the checkpoint it brings the stream to
    /// (whose digest the committer fills in).
    struct Batch: Sendable {
        let records: [ImportRecord]
        let rejections: [MigrationRejection]
        let checkpoint: MigrationCheckpoint
    }

    private let store: SyncStore
    private let author: String
    private let migration: Int64
    /// The sum of the line digests of every record of the stream so far; only the committing thread uses it.
    private var digest: RecordDigestSum
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var pending: Batch?
    private var failure: (any Error)?
    private var closing = false
    private var running = true

    /// Starts the committing thread for a stream whose records so far digest to `digest`
    /// (its checkpoint's).
    init(store: SyncStore, author: String, migration: Int64, digest: RecordDigestSum) {
        self.store = store
        self.author = author
        self.migration = migration
        self.digest = digest
        let thread = Thread { [self] in commitLoop() }
        thread.name = "storekeep.commit"
        thread.start()
    }

    /// Hands a batch over; waits while the previous one is still being written.
    ///
    /// - Throws: the error that made an earlier batch fail (nothing more is written after it).
    func submit(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while pending != nil, failure == nil { condition.wait() }
        if let failure { throw failure }
        pending = batch
        condition.broadcast()
    }

    /// Waits until every submitted batch is committed and stops the thread.
    ///
    /// - Throws: the first error a batch met.
    func finish() throws {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while running { condition.wait() }
        if let failure { throw failure }
    }

    private func commitLoop() {
        var line = RecordLineBuffer()
        while true {
            condition.lock()
            while pending == nil, !closing { condition.wait() }
            guard let batch = pending, failure == nil else {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            var error: (any Error)?
            var checkpoint = batch.checkpoint
            for record in batch.records { store.addDigest(of: record, to: &digest, scratch: &line) }
            checkpoint.digest = digest
            do {
                try store.importBatch(batch.records, rejections: batch.rejections, author: author, migration: migration,
                                      checkpoint: checkpoint, checked: true)
            } catch let caught {
                error = caught
            }
            condition.lock()
            if let error { failure = error }
            pending = nil
            condition.broadcast()
            condition.unlock()
        }
    }
}
