/// How a migration runs.
public struct MigrationOptions: Sendable {
    /// What to do with a record that cannot be written.
    public enum OnError: String, Sendable, CaseIterable {
        /// Stop at the first one; the target stays resumable (exit 65).
        case stop
        /// Skip it, report it, and go on.
        case skip
    }

    /// Records per batch (one SQLite transaction and one checkpoint each).
    public var batchSize: Int
    /// Rows per batch that SQLite copies from the source by itself (``MigrationItem/copied(position:_:digest:)``):
    /// such a batch holds no records in memory, so it can be larger than ``batchSize``. Each batch
    /// commit syncs the disk several times: 5,000-row batches spent 0.6 s of a million-row
    /// migration waiting for it, 50,000-row batches a tenth of that.
    public var copyBatchSize = 50_000
    /// Bytes of values per batch before it is written early (large binary values).
    public var batchBytes: Int
    /// What to do with a record that cannot be written.
    public var onError: OnError
    /// The content name of a target created by the migration (default: the model's name).
    public var contentName: String?
    /// The peer ID of a target created by the migration (default: a new UUID).
    public var peerID: String?
    /// Whether SQLite may copy records from a source it can read itself (an Apple Core Data
    /// store) in `INSERT … SELECT` batches; `false` writes every record one by one, as the
    /// general path does (the same content, slower: for comparing the two).
    public var copiesWithSQL = true
    /// Whether a migration that would drop stored data (``DroppedData``) stops before writing
    /// anything (`badInput`), instead of dropping it as Core Data's own migration does.
    public var refusesDroppedData = false

    /// Creates options; the defaults suit most sources.
    public init(batchSize: Int = 5_000, batchBytes: Int = 16 << 20, onError: OnError = .stop,
                contentName: String? = nil, peerID: String? = nil) {
        self.batchSize = batchSize
        self.batchBytes = batchBytes
        self.onError = onError
        self.contentName = contentName
        self.peerID = peerID
    }
}
