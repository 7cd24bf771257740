/// Where a running migration stands, reported after every batch.
public struct MigrationProgress: Sendable {
    /// The stream being read.
    public var stream: String
    /// Its entity.
    public var entity: String
    /// Records handled in this stream so far (written and rejected, earlier runs included).
    public var done: Int
    /// Records the stream holds in all, when known.
    public var total: Int?
    /// Records handled in all streams so far in this run.
    public var doneThisRun: Int
    /// Records all streams hold, when known.
    public var grandTotal: Int?
}
