import GRDB

extension StoreTransaction {
    /// Moves the local peer's sequence counter up to the last local transaction the history holds,
    /// and sets every other peer's watermark to the last of its transactions the history holds
    /// (what `repair` does for `sync.counterBehind` and `sync.watermarkMismatch`).
    ///
    /// - Returns: whether anything changed.
    @discardableResult
    public func realignSyncCounters() throws -> Bool {
        guard try db.columns(in: "sk_peer").contains(where: { $0.name == "last_seq" }) else { return false }
        var changed = try HistoryCounters.catchUpWithHistory(allPeers: false, in: db)
        let floor = try SyncStore.historyFloor(in: db)
        for row in try Row.fetchAll(db, sql: """
            SELECT peer, last_seq, COALESCE((SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = sk_peer.peer), 0) FROM sk_peer WHERE is_local = 0
            """) {
            guard let peer = try row.optional(at: 0, as: String.self, table: "sk_peer", row: "a peer", store: store.path) else { continue }
            let last = try row.optional(at: 2, as: Int64.self, table: "sk_transaction", row: "the transactions of peer \(peer)", store: store.path)
            let held = max(last ?? 0, floor[peer] ?? 0)
            // A watermark of another kind (text) is what this repairs: it is set like any other.
            if row.stored(at: 1, as: Int64.self) != held {
                try db.execute(sql: "UPDATE sk_peer SET last_seq = ? WHERE peer = ?", arguments: [held, peer])
                changed = true
            }
        }
        return changed
    }
}
