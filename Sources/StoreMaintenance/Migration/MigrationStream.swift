import SyncStore

/// What one step of a source yields: a record to write, or a record it cannot write, and why.
public enum MigrationItem: Sendable {
    /// A record, at its source position.
    case record(position: Int64, ImportRecord)
    /// A record that cannot be written (a value that cannot be converted, a reference to nothing).
    case rejected(position: Int64, reason: String)
    /// A batch of records that SQLite copies from the source by itself (``SyncStore/BulkLoad/importCopiedBatch(_:checkpoint:)``),
    /// up to and including `position`, with the sum of their line digests as the store will compute them.
    case copied(position: Int64, BulkCopy, digest: RecordDigestSum)
}

/// One resumable run of records from a source, all for one entity (a property list array, a table).
///
/// Positions strictly increase; a stream resumed after position `p` yields only positions greater than `p`.
public protocol MigrationStream {
    /// The checkpoint key: unique among the source's streams, stable between runs.
    var name: String { get }
    /// The entity the records are for.
    var entity: String { get }
    /// How many records the stream will yield in all, when cheap to know.
    func estimatedCount() throws -> Int?
    /// Yields the items after `position` in order until `body` returns false or the stream ends.
    ///
    /// `store` is the target, for lookups of records written by earlier streams.
    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws
    /// ``forEach(after:store:_:)`` for a stream that may yield ``MigrationItem/copied(position:_:digest:)``
    /// batches into `load` (what a copy must select: ``SyncStore/BulkCopyLayout``), of
    /// at most ``MigrationOptions/copyBatchSize`` records and about ``MigrationOptions/batchBytes``
    /// bytes of values each; records it yields one by one are batched by the runner with
    /// ``MigrationOptions/batchSize`` as before.
    func forEach(after position: Int64, into load: BulkLoad, options: MigrationOptions, _ body: (MigrationItem) throws -> Bool) throws
}

extension MigrationStream {
    /// Streams that yield records one by one ignore the batch limits (the runner applies them).
    public func forEach(after position: Int64, into load: BulkLoad, options: MigrationOptions, _ body: (MigrationItem) throws -> Bool) throws {
        try forEach(after: position, store: load.store, body)
    }
}
