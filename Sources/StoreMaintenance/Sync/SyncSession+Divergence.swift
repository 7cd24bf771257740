import Foundation
import SyncContainer
import SyncStore

extension SyncSession {
    /// Where this peer's own logs past what the store recorded as exported stop matching the
    /// store's history: the first sequence number whose transaction in the container is not the
    /// store's (another clock, time or author, or one the store never issued), or `nil` when every
    /// one is the store's (logs published by a run killed before it recorded them).
    ///
    /// A store restored from a backup has issued numbers again that its peer ID had already
    /// published: adopting those logs as its own would lose both its new transactions and the
    /// published ones (`docs/container.md`, "Restored stores"). A log that cannot be read cannot be
    /// compared; it is taken as the store's (the store writes it again when another peer needs it).
    func firstDivergence(of own: [LogName], exported: Int64, issued: Int64) throws -> Int64? {
        let decoder = TransactionLogDecoder(store: store, peer: peer, decodingPayloads: false)
        for name in own where name.last > exported {
            if name.first > issued { return max(name.first, exported + 1) }
            let body: [UInt8]
            do {
                (_, body) = try namespace.readLog(name, of: peer)
            } catch is ContainerError {
                continue
            }
            let stamps = try store.localTransactionStamps(from: name.first, through: name.last)
            var divergence: Int64?
            do {
                try body.withUnsafeBytes { bytes in
                    try decoder.forEachTransaction(in: bytes) { transaction in
                        guard divergence == nil, transaction.sequence > exported else { return }
                        let published = TransactionStamp(clock: transaction.clock, date: transaction.date.timeIntervalSince1970, author: transaction.author)
                        if stamps[transaction.sequence] != published { divergence = transaction.sequence }
                    }
                }
            } catch is WireError {
                continue
            }
            if let divergence { return divergence }
        }
        return nil
    }

    /// The error for a store whose transactions from `divergence` on are not the ones its peer ID published.
    func divergenceError(at divergence: Int64, issued: Int64) -> MaintenanceError {
        let what = divergence > issued
            ? "the container holds this peer's (\(peer)) transactions from \(divergence) on, which this store never made"
            : "this store's transaction \(divergence) is not the one its peer ID (\(peer)) published as \(divergence) in the container"
        return MaintenanceError(
            path: store.path,
            problem: "\(what): the store was restored from a backup, or another store has the same peer ID; syncing it as it is would lose changes",
            hint: "sync the newest copy of this store if there is one; otherwise continue this one under a new peer ID: `storekeep sync STORE --container DIR --new-peer-id NEW-ID` (its own changes since transaction \(divergence - 1) are exported under the new ID, and what \(peer) published is imported; docs/container.md, \"Restored stores\")",
            failureKind: .badInput)
    }

    /// Gives a store restored from a backup a new peer ID (``SyncStore/continueUnderNewPeerID(_:sharedThrough:)``),
    /// keeping its old ID for the transactions it shares with what that ID published.
    ///
    /// - Throws: ``MaintenanceError`` `usage` when the store has not diverged from its logs.
    func continueUnderNewPeerID(_ newPeerID: String, path: String) throws {
        let status = try store.syncStatus()
        let own = try namespace.logs(of: peer).logs
        guard let divergence = try firstDivergence(of: own, exported: status.exportedSequence, issued: status.localSequence) else {
            throw MaintenanceError(path: store.path, problem: "the store and the logs its peer ID (\(peer)) published agree: it needs no new peer ID",
                                   hint: "run sync without --new-peer-id", failureKind: .usage)
        }
        let old = peer
        try store.continueUnderNewPeerID(newPeerID, sharedThrough: divergence - 1)
        try CrashPoint.reach("sync.peer.renamed")
        store = try SyncStore.open(at: path)
        report.peer = store.metadata.peerID
        report.findings.append(SyncFinding(
            code: "peer.renamed", severity: "warning", peer: old,
            message: "this store continues as peer \(newPeerID); its transactions up to \(divergence - 1) stay peer \(old)'s, those after are exported as \(newPeerID)'s, and what \(old) published after \(divergence - 1) is imported",
            hint: "peer \(old) no longer syncs: once every device has synced, forget it (`storekeep peers forget … --peer \(old)`) so that it does not hold archiving back"))
    }
}
