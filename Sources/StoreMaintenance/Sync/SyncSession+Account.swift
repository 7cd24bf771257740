import Foundation
import SyncContainer
import SyncStore

extension SyncSession {
    /// Why this store must not sync in the namespace: another peer's data there belongs to another
    /// account (article 5: local data never mixes with another account's).
    func accountConflict() throws -> SyncFinding? {
        let own = store.metadata.accountToken
        for other in try namespace.peers() where other != peer {
            guard let manifest = (try? namespace.manifest(of: other)) ?? nil, let theirs = manifest.account, theirs != own else { continue }
            return SyncFinding(
                code: "account.mismatch", severity: "error", peer: other, file: namespace.manifestPath(other),
                message: own == nil ? "peer \(other) syncs data of an account here, and this store belongs to none: nothing was exported or imported"
                    : "peer \(other) syncs data of another account here than this store's: nothing was exported or imported",
                hint: own == nil ? "give the store its account first (`storekeep account STORE --set TOKEN`)"
                    : "sync the store with its own account's container, or change its account (`storekeep account STORE --set TOKEN --keep-local|--reset`)")
        }
        return nil
    }

    /// After an account change that kept the local data: a baseline of the whole content, so that
    /// the new account's peers get what came from other peers of the old one too.
    func publishAccountBaselineIfPending() throws {
        guard !options.dryRun, try store.accountBaselinePending() else { return }
        let encoder = BaselineEncoder()
        let coverage = try store.exportBaseline(into: encoder)
        let header = BaselineHeader(contentName: namespace.contentName, modelHash: namespace.modelHash, peer: peer, vector: coverage.vector,
                                    latestClock: coverage.latestClock.rawValue, records: encoder.records, memberships: encoder.memberships,
                                    tombstones: encoder.tombstones, reason: "account")
        let (path, _) = try namespace.publishBaseline(header: header, body: encoder.bytes)
        _ = try namespace.readBaseline(URL(fileURLWithPath: path).lastPathComponent)
        try store.clearAccountBaselinePending()
        report.baselinesPublished.append(path)
    }
}
