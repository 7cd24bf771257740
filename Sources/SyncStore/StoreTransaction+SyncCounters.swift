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
        try db.execute(sql: """
            UPDATE sk_peer SET last_seq = MAX(last_seq, COALESCE((SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = sk_peer.peer), 0))
            WHERE is_local != 0
            """)
        var changed = db.changesCount > 0
        try db.execute(sql: """
            UPDATE sk_peer SET last_seq = COALESCE((SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = sk_peer.peer), 0)
            WHERE is_local = 0 AND last_seq != COALESCE((SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = sk_peer.peer), 0)
            """)
        changed = changed || db.changesCount > 0
        return changed
    }
}
