import Foundation

/// The blob files of one batch's large binary values, written on the store's blob queue ahead of
/// the batch's rows and then made durable, each file and each folder it changed synced
/// (``BulkLoad/startWritingBlobFiles(of:)``, ``DurableFileBatch``).
///
/// A migration starts them when it hands a batch over, so the files are written while the batch
/// before it commits; ``BulkLoad/importBatch(_:rejections:checkpoint:checked:blobFiles:)``
/// waits for their references before it inserts the rows, and for their durability before it commits.
///
/// ```swift
/// let files = load.startWritingBlobFiles(of: records)
/// try load.importBatch(records, checkpoint: checkpoint, blobFiles: files)
/// ```
public final class PreparedBlobFiles: @unchecked Sendable {
    /// How many records the batch holds: the files belong to exactly that array of records.
    public let recordCount: Int
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    @exclusivity(unchecked) private var written: Result<[Int: String], StoreError>?
    @exclusivity(unchecked) private var durable: Result<Void, StoreError>?

    init(recordCount: Int) {
        self.recordCount = recordCount
    }

    /// The key of a (record of the batch, attribute column) pair in ``references()``.
    static func key(record: Int, column: Int) -> Int { record << 16 | column }

    /// The `sha256:<hex>` reference of each large value written, by ``key(record:column:)``;
    /// waits until every file of the batch is written.
    ///
    /// - Throws: ``StoreError`` `io` when a file could not be written.
    func references() throws(StoreError) -> [Int: String] {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let written { return try written.get() }
            condition.wait()
        }
    }

    /// Waits until the files are durable, or their writing has failed: after it, no file of this
    /// batch, or of one started before it on the same store, is still being written.
    ///
    /// - Throws: ``StoreError`` `io` when the files were written but could not be made durable (a
    ///   failure to write them comes from ``references()``, which the batch's import reads first).
    public func waitUntilDurable() throws(StoreError) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let durable { return try durable.get() }
            condition.wait()
        }
    }

    func finishWriting(_ result: Result<[Int: String], StoreError>) {
        condition.lock()
        written = result
        condition.broadcast()
        condition.unlock()
    }

    func finishSyncing(_ result: Result<Void, StoreError>) {
        condition.lock()
        durable = result
        condition.broadcast()
        condition.unlock()
    }
}
