import Foundation

/// One saved transaction of the store's history: who, where, when, and what changed.
public struct HistoryTransaction: Hashable, Sendable, Codable {
    /// The transaction's row in `sk_transaction` (local, not meaningful across peers).
    public var id: Int64
    /// The peer that made it.
    public var peer: String
    /// Its sequence number among that peer's transactions (1, 2, 3, … without gaps).
    public var sequence: Int64
    /// Who made it (an app, a command: `storekeep.repair`, …).
    public var author: String
    /// When it was saved.
    public var timestamp: Date
    /// Its changes, in the order they were first made.
    public var changes: [HistoryChange]
}
