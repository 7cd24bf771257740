import GRDB

/// The invariants sync relies on (format 4): the local sequence counter never behind the history,
/// nothing marked exported that was never issued, watermarks equal to the last transaction of each
/// peer the history holds, and every local transaction not yet exported still in the history.
enum SyncStateDetector {
    /// Checks `sk_peer`'s counters against `sk_transaction` (stores before format 4 have no counters).
    static func check(_ context: CheckContext) throws {
        let db = context.db
        guard let columns = try context.columns(ofTable: "sk_peer"), columns.contains("last_seq"), columns.contains("exported_seq"),
              let own = context.metadata["peerID"] else { return }
        let rows = try Row.fetchAll(db, sql: """
            SELECT p.peer, p.is_local, p.last_seq, p.exported_seq,
                   (SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = p.peer) AS held
            FROM sk_peer p ORDER BY p.peer
            """)
        for row in rows {
            guard let peer: String = row["peer"] else { continue }
            let counter: Int64 = row["last_seq"] ?? 0, held: Int64 = row["held"] ?? 0, exported: Int64 = row["exported_seq"] ?? 0
            if peer == own {
                if counter < held {
                    context.add(.syncCounterBehind, property: peer) {
                        var finding = CheckFinding(code: .syncCounterBehind,
                                                   message: "the sequence counter of this peer (\(peer)) stands at \(counter), but its history holds transaction \(held)",
                                                   hint: "run `storekeep repair`, which moves the counter up; new transactions never reuse a number either way")
                        finding.peer = peer
                        return finding
                    }
                }
                if exported > max(counter, held) {
                    context.add(.syncExportedAhead, property: peer) {
                        var finding = CheckFinding(code: .syncExportedAhead,
                                                   message: "the store says it exported its transactions up to \(exported), but it has issued only \(max(counter, held))",
                                                   hint: "the store is damaged or was restored from a backup; do not sync it. Restore the newest copy, or rebuild it from another peer")
                        finding.peer = peer
                        return finding
                    }
                }
                try unexportedMissing(context, peer: peer, after: exported, through: max(counter, held))
            } else if counter != held {
                context.add(.syncWatermarkMismatch, property: peer) {
                    var finding = CheckFinding(code: .syncWatermarkMismatch,
                                               message: "the watermark of peer \(peer) is \(counter), but the last of its transactions the history holds is \(held)",
                                               hint: "run `storekeep repair`, which sets the watermark to what the history holds; the next sync imports from there")
                    finding.peer = peer
                    return finding
                }
            }
        }
    }

    /// Local transactions after `exported` missing from the history: they can never be exported.
    private static func unexportedMissing(_ context: CheckContext, peer: String, after exported: Int64, through last: Int64) throws {
        guard last > exported else { return }
        let held = try Int64.fetchOne(context.db, sql: "SELECT COUNT(*) FROM sk_transaction WHERE peer = ? AND seq > ? AND seq <= ?",
                                      arguments: [peer, exported, last]) ?? 0
        let missing = (last - exported) - held
        guard missing > 0 else { return }
        context.add(.syncUnexportedMissing, property: peer) {
            var finding = CheckFinding(code: .syncUnexportedMissing,
                                       message: "\(missing) of this peer's transactions after the last exported (\(exported)) are missing from the history, so other peers can never get them",
                                       hint: "the history was pruned or damaged; restore the store from a backup that holds them")
            finding.peer = peer
            finding.count = Int(missing)
            return finding
        }
    }
}
