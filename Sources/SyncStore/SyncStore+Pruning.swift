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

/// What a run of `archive` is about to remove, recorded in the store before it removes anything
/// (``SyncStore/recordPendingPrune(_:)``), so that a run stopped part-way is finished by the next.
public struct PendingPrune: Codable, Hashable, Sendable {
    /// The verified archive that holds what is removed.
    public var archive: String
    /// The files to remove from the container (absolute paths), each held by the archive.
    public var files: [String]
    /// Per peer, the last transaction whose history is removed afterwards.
    public var through: [String: Int64]

    /// Creates an intent.
    public init(archive: String, files: [String], through: [String: Int64]) {
        self.archive = archive
        self.files = files
        self.through = through
    }
}

extension SyncStore {
    /// The `sk_metadata` key holding a ``PendingPrune`` (JSON) while an archive run removes logs.
    static let pendingPruneKey = "archivePending"

    /// Records what an archive run is about to remove (replacing an earlier record).
    public func recordPendingPrune(_ pending: PendingPrune) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(pending), as: UTF8.self)
        do {
            try database.write { db in
                try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               arguments: [Self.pendingPruneKey, text])
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, action: "record the archive's removals")
        }
    }

    /// What an archive run stopped part-way was removing, or `nil`.
    public func pendingPrune() throws -> PendingPrune? {
        try read("read the archive state") { db in
            guard let text = try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [Self.pendingPruneKey]) else { return nil }
            return try? JSONDecoder().decode(PendingPrune.self, from: Data(text.utf8))
        }
    }

    /// Removes the history every registered peer already has (`archive`): per peer, its
    /// transactions numbered up to `vector[peer]`, except what sync still needs. Tombstones stay
    /// (they keep deleted records deleted), the local peer's transactions not yet exported stay,
    /// and transactions whose insert runs still stand for records stay (their clocks are those
    /// records' insert clocks). The history floor is raised to `vector`, so that `check` does not
    /// take what was removed for a gap.
    ///
    /// A record's edits that left the history no longer show who made them: from then on
    /// ``userModifiedRecords(among:)`` takes every record updated since its insert to be the user's.
    ///
    /// The record of a pending archive (``recordPendingPrune(_:)``) is removed in the same SQLite
    /// transaction.
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
                try db.execute(sql: "DELETE FROM sk_metadata WHERE key = ?", arguments: [Self.pendingPruneKey])
                return result
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "remove archived history")
        }
    }
}
