import Foundation
import SyncContainer
import SyncStore

/// Accounts in the container (article 5, `docs/container.md`, "Accounts"): data crosses only between
/// stores of the same account, or between stores that both have none.
extension SyncSession {
    /// The account the container gives peer `other`: its manifest's, else the one its newest log
    /// carries (a first sync killed before it wrote its manifest has logs only); `nil` when neither says one.
    func claimedAccount(of other: String) -> String? {
        if let manifest = (try? namespace.manifest(of: other)) ?? nil, let account = manifest.account { return account }
        guard let newest = (try? namespace.logs(of: other))?.logs.last else { return nil }
        return namespace.logHeader(newest, of: other)?.account
    }

    /// Why this store must not sync in the namespace at all: its own folder there (its manifest or
    /// its newest log: the store changed account since it last synced here), another peer there (by
    /// its manifest or its logs), or the namespace's newest baseline holds data of another account
    /// than the store's, or of an account while the store has none. Nothing is then exported or imported.
    func accountConflict() throws -> SyncFinding? {
        let own = store.metadata.accountToken
        if let (file, theirs) = ownFolderAccount(), theirs != own {
            return ownFolderConflict(file: file, theirs: theirs)
        }
        for other in try namespace.peers() where other != peer {
            guard let theirs = claimedAccount(of: other), theirs != own else { continue }
            return conflict(peer: other, file: namespace.manifestPath(other), theirs: theirs)
        }
        if let newest = try namespace.baselines().last, let header = namespace.baselineHeader(newest),
           let theirs = header.account ?? claimedAccount(of: header.peer), theirs != own {
            return conflict(peer: header.peer, file: "\(namespace.baselineFolder)/\(newest)", theirs: theirs)
        }
        return nil
    }

    /// The account this store's own folder in the namespace gives: the one of its manifest, or
    /// else of its newest log, with that file; `nil` when neither names one (a store without an
    /// account that synced here may adopt one and go on syncing here, keeping its data).
    private func ownFolderAccount() -> (file: String, account: String)? {
        if let manifest = (try? namespace.manifest(of: peer)) ?? nil, let account = manifest.account {
            return (namespace.manifestPath(peer), account)
        }
        guard let newest = (try? namespace.logs(of: peer))?.logs.last, let account = namespace.logHeader(newest, of: peer)?.account else { return nil }
        return (namespace.logPath(newest, of: peer), account)
    }

    private func ownFolderConflict(file: String, theirs: String) -> SyncFinding {
        let own = store.metadata.accountToken
        return SyncFinding(
            code: "account.mismatch", severity: "error", peer: peer, file: file,
            message: "this store's own folder here holds data of account \(theirs), and the store now belongs to \(own.map { "account \($0)" } ?? "no account"): nothing was exported or imported",
            hint: own.map { "sync the store with account \($0)'s own container (each account has its own); this namespace stays \(theirs)'s" }
                ?? "give the store its account back (`storekeep account STORE --set \(theirs)`), or sync it with a container of its own")
    }

    private func conflict(peer other: String, file: String, theirs: String) -> SyncFinding {
        let own = store.metadata.accountToken
        return SyncFinding(
            code: "account.mismatch", severity: "error", peer: other, file: file,
            message: own == nil ? "peer \(other) syncs data of account \(theirs) here, and this store belongs to none: nothing was exported or imported"
                : "peer \(other) syncs data of account \(theirs) here, not of this store's account \(own ?? ""): nothing was exported or imported",
            hint: own == nil ? "give the store its account first (`storekeep account STORE --set TOKEN`)"
                : "sync the store with its own account's container, or change its account (`storekeep account STORE --set TOKEN --keep-local|--reset`)")
    }

    /// Whether this store, which has an account, must leave peer `other` out of the import: the
    /// container gives that peer no account, so its data is nobody's (a store without an account
    /// joins one with `account --set`, which keeps its data). Reported as a finding.
    func refusesImport(from other: String) -> Bool {
        guard let own = store.metadata.accountToken, claimedAccount(of: other) == nil,
              let logs = try? namespace.logs(of: other).logs, !logs.isEmpty else { return false }
        report.findings.append(SyncFinding(
            code: "account.mismatch", severity: "error", peer: other, file: namespace.peerFolder(other),
            message: "peer \(other) syncs data of no account here, and this store belongs to account \(own): its data was not imported (this store's was exported)",
            hint: "give that peer's store the account (`storekeep account STORE --set \(own)`, which keeps its data), or move its folder out of the container"))
        return true
    }

    /// The rule for the logs of peer `other`.
    func logAccountRule(for other: String) -> LogAccountRule {
        LogAccountRule(own: store.metadata.accountToken, peerAccount: claimedAccount(of: other))
    }

    /// After an account change that kept the local data: a baseline of the whole content, so that
    /// the new account's peers get what came from other peers of the old one too.
    func publishAccountBaselineIfPending() throws {
        guard !options.dryRun, try store.accountBaselinePending() else { return }
        // Written a part at a time through a file beside the store, so that its memory does not
        // grow with the store (the store's large values are in it).
        let scratch = DeadProcessLeftovers.scratchPath(beside: store.path, kind: "account-baseline")
        var encoder: BaselineEncoder?
        var coverage: BaselineCoverage?
        let (path, _) = try namespace.publishBaseline(scratch: scratch, header: {
            guard let encoder, let coverage else { throw CancellationError() }
            return BaselineHeader(contentName: namespace.contentName, modelHash: namespace.modelHash, peer: peer, vector: coverage.vector,
                                  latestClock: coverage.latestClock.rawValue, records: encoder.records, memberships: encoder.memberships,
                                  tombstones: encoder.tombstones, reason: "account", account: store.metadata.accountToken)
        }, body: { part in
            let parts = BaselineEncoder(handingOnEvery: SnapshotBaselines.partBytes, to: part)
            coverage = try store.exportBaseline(into: parts)
            encoder = parts
        })
        _ = try namespace.verifyBaseline(URL(fileURLWithPath: path).lastPathComponent)
        try store.clearAccountBaselinePending()
        report.baselinesPublished.append(path)
    }
}
