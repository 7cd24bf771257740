import Foundation

/// One transaction as sync carries it between peers: who made it, its place in that peer's
/// sequence, its hybrid timestamp, what it depended on, and its changes with their values.
public struct SyncTransaction: Hashable, Sendable {
    /// The peer that made it.
    public var peer: String
    /// Its number among that peer's transactions: 1, 2, 3, … never reused.
    public var sequence: Int64
    /// Its hybrid logical clock reading.
    public var clock: HybridTimestamp
    /// When it was saved (wall clock).
    public var date: Date
    /// Who made it (an app, `storekeep.repair`, …).
    public var author: String
    /// For each other peer, the last of its transactions the maker had imported when it made this
    /// one: a peer imports this transaction only once it holds those (causal order).
    public var dependencies: [String: Int64]
    /// The changes, in the order their records were first touched.
    public var changes: [SyncChange]

    /// Creates a transaction.
    public init(peer: String, sequence: Int64, clock: HybridTimestamp, date: Date, author: String,
                dependencies: [String: Int64] = [:], changes: [SyncChange]) {
        self.peer = peer
        self.sequence = sequence
        self.clock = clock
        self.date = date
        self.author = author
        self.dependencies = dependencies
        self.changes = changes
    }
}
