import Foundation
import ObjectModel
import SyncStore

/// Commits a migration's batches on a thread of its own, so that reading and converting the next
/// batch overlaps with SQLite writing this one (the machine has at least two cores to give); a
/// batch's blob files are written on the store's blob queue from the moment it is handed over.
///
/// At most one batch of records is being written while the caller fills the next: ``submit(_:)``
/// waits for the previous batch to be committed, which bounds memory to two batches; it frees the
/// batches committed since it last ran, on the caller's thread (see ``submit(_:)``). Copies
/// (batches SQLite copies from the source, which hold no records) may queue up to ``queuedCopies``. Batches commit in the order
/// submitted, each with its checkpoint, so a killed run resumes exactly as a single-threaded one would.
///
/// ```swift
/// let committer = BatchCommitter(load: load)
/// try committer.submit(.init(records: records, rejections: [], checkpoint: checkpoint))
/// try committer.finish()   // waits for the last batch; rethrows the first failure
/// ```
final class BatchCommitter: @unchecked Sendable {
    /// One batch: its records, its rejected records and the checkpoint it brings the stream to;
    /// or, instead of records, a copy SQLite makes from the source.
    struct Batch: Sendable {
        var records: [ImportRecord] = []
        var rejections: [MigrationRejection] = []
        var copy: BulkCopy?
        /// Where the stream stands after the batch, except for the digests of the records handed
        /// over to this committer: it adds them (the sum of every record's line digest, computed
        /// on a thread of its own from the moment the batch is handed over, so that neither the
        /// reading nor the committing thread spends its time on them).
        let checkpoint: MigrationCheckpoint
        /// The records' blob files, started when the batch is handed over.
        var blobFiles: PreparedBlobFiles?
        /// The sum of the records' line digests, started when the batch is handed over.
        var digest: BackgroundWork<RecordDigestSum>?
    }

    private let load: BulkLoad
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    /// Batches handed over and not yet committed, oldest first (the first one is being written).
    @exclusivity(unchecked) private var pending: [Batch] = []
    @exclusivity(unchecked) private var failure: (any Error)?
    @exclusivity(unchecked) private var closing = false
    @exclusivity(unchecked) private var running = true
    /// The blob files started last: the store's blob queue writes them in order, so once these are
    /// durable no file of this committer's batches is still being written.
    @exclusivity(unchecked) private var lastBlobFiles: PreparedBlobFiles?
    /// The sum of the line digests of the records committed so far (committing thread only).
    @exclusivity(unchecked) private var recordDigests = RecordDigestSum()
    /// Batches committed and not yet handed back to the submitting thread to be freed.
    @exclusivity(unchecked) private var committed: [Batch] = []

    /// Starts the committing thread.
    init(load: BulkLoad) {
        self.load = load
        let thread = Thread { [self] in commitLoop() }
        thread.name = "storekeep.commit"
        thread.start()
    }

    /// How many copy batches may wait for the committing thread: a copy holds no records, so a
    /// few queued keep the reading thread going when one commit takes longer than one read.
    static let queuedCopies = 4

    /// Hands a batch over; waits while the previous one is still being written (for a batch of
    /// records, which holds them in memory), or while ``queuedCopies`` copies wait (for a copy).
    ///
    /// The batches committed since the last call are freed here, on the thread that built their
    /// records: glibc's `free` of a block takes the lock of the arena that allocated it, so a
    /// queue that freed them made the reading thread wait for its own arena's lock, about 2,000
    /// times (1.8 s) in a 14 s migration of a million speeches.
    ///
    /// - Throws: the error that made an earlier batch fail (nothing more is written after it).
    func submit(_ batch: Batch) throws {
        let done = try handOver(batch)
        withExtendedLifetime(done) {}
    }

    /// ``submit(_:)`` up to freeing: returns the batches committed since the last hand-over.
    private func handOver(_ batch: Batch) throws -> [Batch] {
        var batch = batch
        // Its blob files are written while the batch before it commits.
        if batch.copy == nil, !batch.records.isEmpty {
            batch.blobFiles = load.startWritingBlobFiles(of: batch.records)
            batch.digest = BackgroundWork(name: "storekeep.digest") { [store = load.store, records = batch.records] in
                var sum = RecordDigestSum()
                var line = RecordLineBuffer()
                for index in records.indices { store.addDigest(of: records[index], to: &sum, scratch: &line) }
                return sum
            }
        }
        condition.lock()
        defer { condition.unlock() }
        if let files = batch.blobFiles { lastBlobFiles = files }
        let room = batch.copy == nil || pending.contains(where: { $0.copy == nil }) ? 1 : Self.queuedCopies
        while pending.count >= room, failure == nil { condition.wait() }
        if let failure {
            // The batch's own work has started: it ends before the error goes up (see finish()).
            Self.settle(batch)
            throw failure
        }
        pending.append(batch)
        condition.broadcast()
        defer { committed.removeAll() }
        return committed
    }

    /// Waits until every submitted batch is committed (or, after a failure, until no work a
    /// batch started is still running: its blob files, its digest) and stops the thread; the
    /// batches committed since the last hand-over are freed on the calling thread.
    ///
    /// After it returns no thread of this committer runs: an error can go up and end the process
    /// without a thread still hashing or writing while the process's libraries are torn down (a
    /// digest thread left running on a full disk met OpenSSL's exit-time clean-up and crashed).
    ///
    /// - Throws: the first error a batch met.
    func finish() throws {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while running { condition.wait() }
        // Batches a failure left uncommitted: their digests and files were started on hand-over.
        for batch in pending { Self.settle(batch) }
        pending.removeAll()
        _ = try? lastBlobFiles?.waitUntilDurable()
        committed.removeAll()
        if let failure { throw failure }
    }

    /// Waits for the work a batch started when it was handed over (its digest and its blob files)
    /// and that no commit will wait for.
    private static func settle(_ batch: Batch) {
        _ = try? batch.digest?.wait()
        _ = try? batch.blobFiles?.waitUntilDurable()
    }

    private func commitLoop() {
        while true {
            condition.lock()
            while pending.isEmpty, !closing { condition.wait() }
            guard let batch = pending.first, failure == nil else {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            let error = commit(consume batch)
            condition.lock()
            if let error { failure = error }
            committed.append(pending.removeFirst())
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Commits one batch (the first pending one); returns the error that stopped it.
    private func commit(_ batch: consuming Batch) -> (any Error)? {
        do {
            if let digest = batch.digest { recordDigests.add(try digest.wait()) }
            var checkpoint = batch.checkpoint
            checkpoint.digest.add(recordDigests)
            if let copy = batch.copy {
                try load.importCopiedBatch(copy, checkpoint: checkpoint)
            } else {
                try load.importBatch(batch.records, rejections: batch.rejections, checkpoint: checkpoint, checked: true, blobFiles: batch.blobFiles)
            }
            return nil
        } catch {
            return error
        }
    }
}
