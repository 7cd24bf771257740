import GRDB

extension StoreInspection {
    /// Whether the store keeps sync counters per peer (format 4 and later).
    public func hasSyncCounters() throws -> Bool {
        guard let columns = try columns(ofTable: StoreLayoutDescription.peerTable) else { return false }
        return columns.contains("last_seq") && columns.contains("exported_seq")
    }

    /// Every peer's counters, sorted by peer (peers whose name is not text are left out).
    /// Call only when ``hasSyncCounters()``.
    public func peerCounters() throws -> [PeerCounters] {
        try reading {
            try Row.fetchAll(db, sql: """
                SELECT p.peer, p.is_local, p.last_seq, p.exported_seq,
                       (SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = p.peer) AS held
                FROM sk_peer p ORDER BY p.peer
                """).compactMap { row in
                guard let peer = row.stored("peer", as: String.self) else { return nil }
                return PeerCounters(peer: peer, isLocal: (row.stored("is_local", as: Int64.self) ?? 0) != 0,
                                    lastSequence: row.stored("last_seq", as: Int64.self) ?? 0,
                                    exportedSequence: row.stored("exported_seq", as: Int64.self) ?? 0,
                                    highestHeld: row.stored("held", as: Int64.self) ?? 0)
            }
        }
    }

    /// How many transactions of `peer` with a sequence number after `first` and up to `last` the history holds.
    public func transactionCount(of peer: String, after first: Int64, through last: Int64) throws -> Int64 {
        try reading {
            try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_transaction WHERE peer = ? AND seq > ? AND seq <= ?",
                               arguments: [peer, first, last]) ?? 0
        }
    }
}
