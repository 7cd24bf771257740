import Foundation
import GRDB

/// What ``SyncStore/pruneHistory(through:)`` removed.
public struct PruneResult: Hashable, Sendable, Codable {
    /// History transactions removed (those still holding the insert of a record are kept, with
    /// their insert runs: they give the records their insert clocks).
    public var transactions = 0
    /// Change rows removed.
    public var changes = 0

    /// Nothing removed.
    public init() {}
}

extension SyncStore {
    /// Removes the history every registered peer already has (`archive`): per peer, its
    /// transactions numbered up to `vector[peer]`, except what sync still needs. Tombstones stay
    /// (they keep deleted records deleted), the local peer's transactions not yet exported stay,
    /// and transactions whose insert runs still stand for records stay (their clocks are those
    /// records' insert clocks). The history floor is raised to `vector`, so that `check` does not
    /// take what was removed for a gap.
    ///
    /// A record's edits that left the history no longer show who made them: from then on
    /// ``userModifiedRecords(among:)`` takes every record updated since its insert to be the user's.
    public func pruneHistory(through vector: [String: Int64]) throws -> PruneResult {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.write { db in
                var result = PruneResult()
                let status = try syncStatus(in: db)
                var limits = vector
                if let own = limits[metadata.peerID] { limits[metadata.peerID] = min(own, status.exportedSequence) }
                for (peer, last) in limits.sorted(by: { $0.key < $1.key }) where last > 0 {
                    try db.execute(sql: """
                        DELETE FROM sk_change WHERE tx IN (SELECT id FROM sk_transaction WHERE peer = ? AND seq <= ?)
                        """, arguments: [peer, last])
                    result.changes += db.changesCount
                    let runs = hasInsertRuns ? "AND id NOT IN (SELECT tx FROM sk_insert_run)" : ""
                    try db.execute(sql: "DELETE FROM sk_transaction WHERE peer = ? AND seq <= ? \(runs)", arguments: [peer, last])
                    result.transactions += db.changesCount
                }
                try Self.raiseHistoryFloor(to: limits.filter { $0.value > 0 }, in: db)
                return result
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "remove archived history")
        }
    }
}
