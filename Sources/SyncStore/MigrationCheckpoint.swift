/// How far one stream of a migration has come: committed in the same transaction as the batch it follows.
public struct MigrationCheckpoint: Hashable, Sendable, Codable {
    /// The stream (one per source entity or key path).
    public var stream: String
    /// The source position to resume after (an array index, a primary key, …).
    public var position: Int64
    /// Records written so far by this stream.
    public var rows: Int
    /// Records rejected so far by this stream.
    public var rejected: Int
    /// The order-independent digest of every record this stream has written (see ``RecordDigestSum``).
    public var digest: RecordDigestSum

    /// Creates a checkpoint.
    public init(stream: String, position: Int64, rows: Int, rejected: Int, digest: RecordDigestSum = RecordDigestSum()) {
        self.stream = stream
        self.position = position
        self.rows = rows
        self.rejected = rejected
        self.digest = digest
    }
}
