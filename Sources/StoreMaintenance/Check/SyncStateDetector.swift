import Foundation
import SyncStore

/// The invariants sync relies on (format 4): the local sequence counter never behind the history,
/// nothing marked exported that was never issued, watermarks equal to the last transaction of each
/// peer the history holds, and every local transaction not yet exported still in the history.
enum SyncStateDetector {
    /// Checks the peers' counters against the history (stores before format 4 have no counters).
    static func check(_ context: CheckContext) throws {
        redirected(context)
        let inspection = context.inspection
        guard try inspection.hasSyncCounters(), let own = context.metadata["peerID"] else { return }
        let floor = historyFloor(context)
        for counters in try inspection.peerCounters() {
            let peer = counters.peer
            let counter = counters.lastSequence, held = counters.highestHeld, exported = counters.exportedSequence
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
            } else if counter != max(held, floor[peer] ?? 0) {
                context.add(.syncWatermarkMismatch, property: peer) {
                    var finding = CheckFinding(code: .syncWatermarkMismatch,
                                               message: "the watermark of peer \(peer) is \(counter), but the last of its transactions the history holds (or a baseline brought in) is \(max(held, floor[peer] ?? 0))",
                                               hint: "run `storekeep repair`, which sets the watermark to what the history holds; the next sync imports from there")
                    finding.peer = peer
                    return finding
                }
            }
        }
    }

    /// A content name rekeyed in the container of the store's last sync, which the store has not followed.
    private static func redirected(_ context: CheckContext) {
        guard let container = context.metadata["syncContainer"], let name = context.metadata["contentName"] else { return }
        let path = "\(container)/\(name)/redirect.json"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let target = (FileManager.default.contents(atPath: path)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["to"] as? String
        context.add(.syncRedirected) {
            var finding = CheckFinding(code: .syncRedirected,
                                       message: "content name \(name) was rekeyed\(target.map { " to \($0)" } ?? "") (\(path)); this store still syncs under the old name",
                                       hint: "run `storekeep sync` on the store: it imports what remains under \(name), then follows the rekey")
            finding.file = path
            return finding
        }
    }

    /// Per peer, the sequence number up to which the history may be missing (`sk_metadata.historyFloor`).
    static func historyFloor(_ context: CheckContext) -> [String: Int64] {
        guard let text = context.metadata["historyFloor"], let floor = try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8)) else {
            return [:]
        }
        return floor
    }

    /// Local transactions after `exported` missing from the history: they can never be exported.
    private static func unexportedMissing(_ context: CheckContext, peer: String, after exported: Int64, through last: Int64) throws {
        guard last > exported else { return }
        let held = try context.inspection.transactionCount(of: peer, after: exported, through: last)
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
