import ObjectModel
import SyncStore

/// The history's continuity: per-peer sequence numbers without gaps, changes that belong to a
/// transaction, transactions of known peers, and the local peer in the peer table.
///
/// What stands for "watermarks not ahead of what exists" before format 4 is that every peer with
/// transactions is listed in the peer table and that it marks exactly the store's own peer as
/// local (see `docs/checks.md`); ``SyncStateDetector`` checks format 4's counters.
enum HistoryDetector {
    /// How many global IDs a history finding lists at most.
    static let listedGlobalIDs = 1000

    /// Checks the history tables (absent tables are a schema finding, not repeated here).
    static func check(_ context: CheckContext) throws {
        let inspection = context.inspection
        switch try inspection.historyTableProblem() {
        case .incomplete(let tables)?:
            context.add(.schemaMismatch) {
                CheckFinding(code: .schemaMismatch, message: "the history tables (\(tables.joined(separator: ", "))) are incomplete; the history was not checked",
                             hint: "the store's layout is damaged; restore it from a backup")
            }
            return
        case .insertRunsMissing(let table)?:
            context.add(.schemaMismatch) {
                CheckFinding(code: .schemaMismatch, message: "the history table \(table) of a format-3 store is missing; the history was not checked",
                             hint: "the store's layout is damaged; restore it from a backup")
            }
            return
        case nil:
            break
        }
        try gaps(context)
        try orphanChanges(try inspection.orphanedChanges(), inRuns: false, context)
        if try inspection.recordsInsertRuns() {
            try orphanChanges(try inspection.orphanedInsertRuns(), inRuns: true, context)
            try unknownRuns(context)
        }
        try unknownPeers(context)
        try localPeer(context)
    }

    private static func gaps(_ context: CheckContext) throws {
        var byPeer: [(peer: String, ranges: [SequenceRange])] = []
        let floor = SyncStateDetector.historyFloor(context)
        for gap in try context.inspection.sequenceGaps() {
            let range = SequenceRange(first: gap.first, last: gap.last)
            // Below the history floor, transactions left with an archive or came in a baseline.
            guard range.last > (floor[gap.peer] ?? 0) else { continue }
            if byPeer.last?.peer != gap.peer { byPeer.append((gap.peer, [])) }
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

    /// Changes (or with `inRuns` insert runs) of a transaction that does not exist: they cannot be exported.
    private static func orphanChanges(_ orphans: [OrphanedChanges], inRuns: Bool, _ context: CheckContext) throws {
        for orphan in orphans {
            let tx = orphan.transaction, count = orphan.count
            context.add(.historyOrphanChange) {
                let gids = inRuns ? [] : (try? context.inspection.globalIDs(ofChangesIn: tx, limit: listedGlobalIDs)) ?? []
                let what = inRuns ? "insert runs in \(StoreLayoutDescription.insertRunTable) standing for \(count) record\(count == 1 ? "" : "s")"
                    : "\(count) change\(count == 1 ? "" : "s") in \(StoreLayoutDescription.changeTable)"
                var finding = CheckFinding(
                    code: .historyOrphanChange, globalIDs: gids,
                    message: "\(what) belong to transaction \(tx), which \(StoreLayoutDescription.transactionTable) does not have",
                    hint: "the history is damaged: those \(inRuns ? "inserts" : "changes") cannot be exported. Restore the store from a backup")
                finding.transaction = tx
                finding.count = count
                return finding
            }
        }
    }

    /// Records that name an insert run the history does not have: their insert is lost from the history.
    private static func unknownRuns(_ context: CheckContext) throws {
        guard let model = context.model, let layout = context.layout else { return }
        for root in model.rootEntities {
            guard let table = layout.table(ofRootEntity: root.name), let missing = try context.inspection.missingInsertRuns(in: table) else { continue }
            let count = missing.count
            context.add(.historyUnknownInsertRun, entity: root.name) {
                let gids = (try? context.inspection.globalIDsNamingMissingInsertRuns(in: table, limit: listedGlobalIDs)) ?? []
                var finding = CheckFinding(
                    code: .historyUnknownInsertRun, entity: root.name, globalIDs: gids,
                    message: "\(count) record\(count == 1 ? "" : "s") of \(table) name\(count == 1 ? "s" : "") an insert run that \(StoreLayoutDescription.insertRunTable) does not have",
                    hint: "the history is damaged: those records' inserts cannot be exported. Restore the store from a backup")
                finding.table = table
                finding.count = count
                return finding
            }
        }
    }

    private static func unknownPeers(_ context: CheckContext) throws {
        for unknown in try context.inspection.unknownPeers() {
            let peer = unknown.peer, count = unknown.transactions
            context.add(.historyUnknownPeer, property: peer) {
                var finding = CheckFinding(
                    code: .historyUnknownPeer,
                    message: "\(count) transaction\(count == 1 ? "" : "s") of peer \(peer) (up to sequence \(unknown.lastSequence)), which \(StoreLayoutDescription.peerTable) does not list",
                    hint: "the store does not know that peer; sync will register it. If it persists, report it with `storekeep info`")
                finding.peer = peer
                finding.count = count
                return finding
            }
        }
    }

    private static func localPeer(_ context: CheckContext) throws {
        guard let own = context.metadata["peerID"], !own.isEmpty else { return }
        let locals = try context.inspection.localPeers()
        guard locals != [own] else { return }
        let peers = StoreLayoutDescription.peerTable
        context.add(.peerLocalMissing) {
            var finding = CheckFinding(
                code: .peerLocalMissing,
                message: locals.isEmpty ? "\(peers) does not list the store's own peer \(own) as local"
                    : "\(peers) marks \(locals.joined(separator: ", ")) as local, but the store's peer is \(own)",
                hint: "the peer table is damaged; restore the store from a backup")
            finding.peer = own
            return finding
        }
    }
}
