/// Sequence numbers missing between two transactions of one peer in a store's history
/// (``StoreInspection/sequenceGaps()``).
public struct SequenceGap: Hashable, Sendable {
    /// The peer.
    public var peer: String
    /// The first missing sequence number.
    public var first: Int64
    /// The last missing sequence number.
    public var last: Int64
}
