/// Transactions of a peer the store's peer table does not list (``StoreInspection/unknownPeers()``).
public struct UnknownPeerHistory: Hashable, Sendable {
    /// The peer.
    public var peer: String
    /// How many of its transactions the history holds.
    public var transactions: Int
    /// The largest of their sequence numbers.
    public var lastSequence: Int64
}
