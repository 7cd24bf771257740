import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Applies other peers' transactions, in the order given, in one SQLite transaction: all of
    /// them, with the watermarks that say they are here, or none (when this throws).
    ///
    /// Each transaction must be the next of its peer (its sequence number one past the peer's
    /// watermark); one already held is skipped. Changes merge per property, last writer wins
    /// (``PropertyClock``: an update outranks an insert, then the later hybrid timestamp, then the
    /// larger peer ID); to-many memberships merge the same way one member at a time; a delete wins
    /// over every insert or update of the same record, earlier or later (`docs/container.md`,
    /// "Merging"). Nothing is refused for being invalid (article 2): a missing required value, a
    /// dangling reference or a duplicate is stored as it comes, for the fixes that follow.
    ///
    /// The imported history keeps each transaction's own peer, sequence number, author and clock,
    /// so it is never exported again as this peer's.
    ///
    /// - Throws: ``StoreError``: `invalidRequest` for a transaction that skips ahead of its peer's
    ///   watermark, or one of this peer's own; `io` when writing fails.
    public func applyRemoteTransactions(_ transactions: [SyncTransaction]) throws -> RemoteImportReport {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.write { db in
                let applier = try RemoteTransactionApplier(store: self, db: db)
                for transaction in transactions { try applier.apply(transaction) }
                try applier.finish()
                if !applier.report.transactions.isEmpty { try Self.markImportFixPending(in: db) }
                return applier.report
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "import transactions")
        }
    }

    /// For every other peer this store has imported from, the sequence number of the last of its
    /// transactions imported (the watermark).
    public func importWatermarks() throws -> [String: Int64] {
        try read("read the watermarks") { db in
            guard try db.columns(in: "sk_peer").contains(where: { $0.name == "last_seq" }) else { return [:] }
            var result: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT peer, last_seq FROM sk_peer WHERE is_local = 0") {
                guard let peer = try row.optional(at: 0, as: String.self, table: "sk_peer", row: "a peer", store: path),
                      let last = try row.optional(at: 1, as: Int64.self, table: "sk_peer", row: "peer \(peer)", store: path) else { continue }
                result[peer] = last
            }
            return result
        }
    }
}
