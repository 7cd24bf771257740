import Foundation
import ObjectModel

/// The blob files an import writes, written on a thread of their own while the import goes on
/// writing rows, and made durable together (``DurableFileBatch``) before the rows that refer to
/// them commit.
///
/// Writing a blob file (creating it, writing it, starting its writeback, naming it) is mostly the
/// kernel's work, and a new peer joining brings hundreds of thousands of them: done on the
/// importing thread it took a quarter of a join. The importer computes each blob's digest (its
/// reference is bound into the row at once) and hands the bytes over; at most ``byteLimit`` bytes
/// wait to be written, so memory stays bounded whatever the import's size.
///
/// A failure is reported by the next ``reference(writing:entity:column:)`` or by ``finish()``;
/// what was handed over after it is dropped. ``abandon()`` (an import that failed or was stopped)
/// drops what waits; the files not yet named are never named.
///
/// ```swift
/// let files = BackgroundBlobFiles(store: store)
/// statement.bind(index, try files.reference(writing: data, entity: "Speech", column: "audio"))
/// try files.finish()   // every file handed over is durable under its name
/// ```
final class BackgroundBlobFiles: @unchecked Sendable {
    private let store: SyncStore
    private let queue = DispatchQueue(label: "storekeep.import-blobs")
    /// Touched only on `queue`.
    private let batch = DurableFileBatch()
    /// How many bytes may wait to be written (each file counted as at least one page).
    let byteLimit: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waitingBytes = 0
    private var failure: StoreError?
    private var abandoned = false

    /// Blob files of `store`, at most `byteLimit` bytes of them waiting at once.
    init(store: SyncStore, byteLimit: Int = 32 << 20) {
        self.store = store
        self.byteLimit = max(1, byteLimit)
    }

    /// `sha256:<hex>` of `data`, whose file is written in the background unless it exists.
    ///
    /// - Throws: ``StoreError`` `io` for a file handed over earlier that could not be written
    ///   (the disk is full, say): the import stops and rolls back.
    func reference(writing data: Data, entity: String, column: String) throws(StoreError) -> String {
        let digest = SHA256.hexDigest(of: data)
        let cost = max(data.count, 4096)
        condition.lock()
        while waitingBytes > 0, waitingBytes + cost > byteLimit, failure == nil, !abandoned { condition.wait() }
        if let failure = failure ?? abandonment() {
            condition.unlock()
            throw failure
        }
        waitingBytes += cost
        condition.unlock()
        queue.async { [self] in
            var result: StoreError?
            if !isStopped() {
                do throws(StoreError) {
                    _ = try store.blobReference(writing: data, digest: digest, into: batch, entity: entity, column: column)
                } catch {
                    result = error
                }
            }
            condition.lock()
            waitingBytes -= cost
            if let result, failure == nil { failure = result }
            condition.broadcast()
            condition.unlock()
        }
        return BlobStore.referencePrefix + digest
    }

    /// Waits until every file handed over is written and durable under its name, with the
    /// folders made for them: what the import does just before it commits.
    ///
    /// - Throws: ``StoreError`` `io` (saying so when the disk is full).
    func finish() throws(StoreError) {
        let outcome = queue.sync { () -> Result<Void, StoreError> in
            if let failure = condition.withLock({ failure ?? abandonment() }) { return .failure(failure) }
            return Result { () throws(StoreError) in try store.finishBlobFiles(batch) }
        }
        try outcome.get()
    }

    /// Drops what waits to be written, and waits until nothing is being written: for an import
    /// that ends without committing (the files not yet named vanish with the batch; those named
    /// already are unreferenced, as after a kill, and `check` reports them). Afterwards
    /// ``reference(writing:entity:column:)`` and ``finish()`` throw.
    func abandon() {
        condition.withLock { abandoned = true }
        queue.sync {}
    }

    /// What ``reference(writing:entity:column:)`` and ``finish()`` throw once abandoned (called
    /// with the lock held): the files handed over are not written, so nothing may refer to them.
    private func abandonment() -> StoreError? {
        guard abandoned else { return nil }
        return StoreError(.invalidRequest, path: store.path, message: "the import's blob files were abandoned; they cannot be referred to",
                          hint: "run the import again")
    }

    private func isStopped() -> Bool {
        condition.withLock { abandoned || failure != nil }
    }
}
