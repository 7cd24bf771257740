/// Counts of a store's history.
public struct HistorySummary: Hashable, Sendable, Codable {
    /// Number of transactions.
    public var transactions: Int
    /// Number of changes.
    public var changes: Int
    /// The highest sequence number of the store's own peer (0 when it has saved nothing).
    public var localSequence: Int64
}
