import GRDB
import ObjectModel

/// The history's continuity: per-peer sequence numbers without gaps, changes that belong to a
/// transaction, transactions of known peers, and the local peer in `sk_peer`.
///
/// There is no watermark table yet (format 2): what stands for "watermarks not ahead of what
/// exists" is that every peer with transactions is listed in `sk_peer` and that `sk_peer` marks
/// exactly the store's own peer as local (see `docs/checks.md`).
enum HistoryDetector {
    /// Checks the history tables (absent tables are a schema finding, not repeated here).
    static func check(_ context: CheckContext) throws {
        let db = context.db
        guard try db.tableExists("sk_transaction"), try db.tableExists("sk_change"), try db.tableExists("sk_peer") else {
            context.add(.schemaMismatch) {
                CheckFinding(code: .schemaMismatch, message: "the history tables (sk_transaction, sk_change, sk_peer) are incomplete; the history was not checked",
                             hint: "the store's layout is damaged; restore it from a backup")
            }
            return
        }
        if context.hasInsertRuns, try !context.db.tableExists("sk_insert_run") {
            context.add(.schemaMismatch) {
                CheckFinding(code: .schemaMismatch, message: "the history table sk_insert_run of a format-3 store is missing; the history was not checked",
                             hint: "the store's layout is damaged; restore it from a backup")
            }
            return
        }
        try gaps(context)
        try orphanChanges(context)
        if context.hasInsertRuns {
            try orphanChanges(context, inRuns: true)
            try unknownRuns(context)
        }
        try unknownPeers(context)
        try localPeer(context)
    }

    private static func gaps(_ context: CheckContext) throws {
        let rows = try Row.fetchAll(context.db, sql: """
            SELECT peer, previous + 1 AS first, seq - 1 AS last FROM (
                SELECT peer, seq, LAG(seq) OVER (PARTITION BY peer ORDER BY seq) AS previous FROM sk_transaction)
            WHERE previous IS NOT NULL AND seq > previous + 1 ORDER BY peer, seq
            """)
        var byPeer: [(peer: String, ranges: [SequenceRange])] = []
        let floor = SyncStateDetector.historyFloor(context)
        for row in rows {
            let peer: String = row.stored("peer", as: String.self) ?? ""
            let range = SequenceRange(first: row.stored("first", as: Int64.self) ?? 0, last: row.stored("last", as: Int64.self) ?? 0)
            // Below the history floor, transactions left with an archive or came in a baseline.
            guard range.last > (floor[peer] ?? 0) else { continue }
            if byPeer.last?.peer != peer { byPeer.append((peer, [])) }
            byPeer[byPeer.count - 1].ranges.append(range)
        }
        for (peer, ranges) in byPeer {
            context.add(.historySequenceGap, property: peer) {
                let shown = ranges.prefix(10).map(\.text).joined(separator: ", ") + (ranges.count > 10 ? ", …" : "")
                var finding = CheckFinding(
                    code: .historySequenceGap,
                    message: "the transactions of peer \(peer) skip sequence numbers \(shown)",
                    hint: "transactions were lost; other peers cannot import past the gap. Restore the store from a backup, or rebuild it from another peer")
                finding.peer = peer
                finding.missingSequences = ranges
                return finding
            }
        }
    }

    /// Changes (`sk_change` rows, or with `inRuns` the insert runs of `sk_insert_run`) of a
    /// transaction that does not exist: they cannot be exported.
    private static func orphanChanges(_ context: CheckContext, inRuns: Bool = false) throws {
        let (table, counted) = inRuns ? ("sk_insert_run", "SUM(c.records)") : ("sk_change", "COUNT(*)")
        let rows = try Row.fetchAll(context.db, sql: """
            SELECT c.tx AS tx, \(counted) AS n FROM \(table) c
            WHERE NOT EXISTS (SELECT 1 FROM sk_transaction t WHERE t.id = c.tx) GROUP BY c.tx ORDER BY c.tx
            """)
        for row in rows {
            let tx: Int64 = row.stored("tx", as: Int64.self) ?? 0, count: Int = row.stored("n", as: Int.self) ?? 0
            context.add(.historyOrphanChange) {
                let gids = inRuns ? [] : (try? String.fetchAll(context.db, sql: "SELECT DISTINCT gid FROM sk_change WHERE tx = ? ORDER BY gid LIMIT 1000",
                                                               arguments: [tx])) ?? []
                let what = inRuns ? "insert runs in sk_insert_run standing for \(count) record\(count == 1 ? "" : "s")"
                    : "\(count) change\(count == 1 ? "" : "s") in sk_change"
                var finding = CheckFinding(
                    code: .historyOrphanChange, globalIDs: gids,
                    message: "\(what) belong to transaction \(tx), which sk_transaction does not have",
                    hint: "the history is damaged: those \(inRuns ? "inserts" : "changes") cannot be exported. Restore the store from a backup")
                finding.transaction = tx
                finding.count = count
                return finding
            }
        }
    }

    /// Records that name an insert run `sk_insert_run` does not have: their insert is lost from the history.
    private static func unknownRuns(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for root in model.rootEntities {
            let table = "e_\(root.name)"
            guard let columns = try context.columns(ofTable: table), columns.contains("_insert_run") else { continue }
            let quoted = table.quotedSQLIdentifier
            let count = try Int.fetchOne(context.db, sql: """
                SELECT COUNT(*) FROM \(quoted) e WHERE e._insert_run IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM sk_insert_run r WHERE r.id = e._insert_run)
                """) ?? 0
            guard count > 0 else { continue }
            context.add(.historyUnknownInsertRun, entity: root.name) {
                let gids = (try? String.fetchAll(context.db, sql: """
                    SELECT _gid FROM \(quoted) e WHERE e._insert_run IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM sk_insert_run r WHERE r.id = e._insert_run) ORDER BY _gid LIMIT 1000
                    """)) ?? []
                var finding = CheckFinding(
                    code: .historyUnknownInsertRun, entity: root.name, globalIDs: gids,
                    message: "\(count) record\(count == 1 ? "" : "s") of \(table) name\(count == 1 ? "s" : "") an insert run that sk_insert_run does not have",
                    hint: "the history is damaged: those records' inserts cannot be exported. Restore the store from a backup")
                finding.table = table
                finding.count = count
                return finding
            }
        }
    }

    private static func unknownPeers(_ context: CheckContext) throws {
        let rows = try Row.fetchAll(context.db, sql: """
            SELECT peer, COUNT(*) AS n, MAX(seq) AS last FROM sk_transaction
            WHERE peer NOT IN (SELECT peer FROM sk_peer) GROUP BY peer ORDER BY peer
            """)
        for row in rows {
            let peer: String = row.stored("peer", as: String.self) ?? "", count: Int = row.stored("n", as: Int.self) ?? 0
            context.add(.historyUnknownPeer, property: peer) {
                var finding = CheckFinding(
                    code: .historyUnknownPeer,
                    message: "\(count) transaction\(count == 1 ? "" : "s") of peer \(peer) (up to sequence \(row.stored("last", as: Int64.self) ?? 0)), which sk_peer does not list",
                    hint: "the store does not know that peer; sync will register it. If it persists, report it with `storekeep info`")
                finding.peer = peer
                finding.count = count
                return finding
            }
        }
    }

    private static func localPeer(_ context: CheckContext) throws {
        guard let own = context.metadata["peerID"], !own.isEmpty else { return }
        let locals = try String.fetchAll(context.db, sql: "SELECT peer FROM sk_peer WHERE is_local != 0 ORDER BY peer")
        guard locals != [own] else { return }
        context.add(.peerLocalMissing) {
            var finding = CheckFinding(
                code: .peerLocalMissing,
                message: locals.isEmpty ? "sk_peer does not list the store's own peer \(own) as local"
                    : "sk_peer marks \(locals.joined(separator: ", ")) as local, but the store's peer is \(own)",
                hint: "the peer table is damaged; restore the store from a backup")
            finding.peer = own
            return finding
        }
    }
}
