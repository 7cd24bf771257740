/// One peer's counters in a store (format 4), beside what the history holds of it
/// (``StoreInspection/peerCounters()``). A counter that does not read is 0.
public struct PeerCounters: Hashable, Sendable {
    /// The peer.
    public var peer: String
    /// Whether the store marks it as its own.
    public var isLocal: Bool
    /// For the local peer the last sequence number issued; for another peer the last of its
    /// transactions imported (its watermark).
    public var lastSequence: Int64
    /// For the local peer, the last of its transactions exported.
    public var exportedSequence: Int64
    /// The largest sequence number of its transactions the history holds (0 when none).
    public var highestHeld: Int64
}
