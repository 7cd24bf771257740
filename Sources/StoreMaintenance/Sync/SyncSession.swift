import Foundation
import ObjectModel
import SyncContainer
import SyncStore

/// One run of `sync` on one open store: the steps ``StoreSynchronizer`` takes, and the report they fill in.
final class SyncSession {
    var store: SyncStore
    var namespace: SyncNamespace
    let options: SyncOptions
    var report: SyncReport
    var peer: String { store.metadata.peerID }

    init(store: SyncStore, namespace: SyncNamespace, options: SyncOptions, report: SyncReport) {
        self.store = store
        self.namespace = namespace
        self.options = options
        self.report = report
    }

    /// Publishes the local transactions not yet exported, in logs of at most
    /// ``SyncOptions/changesPerLog`` changes, recording each as exported once it is in place.
    ///
    /// First it squares the store with its own logs: a log published by a run killed before it
    /// recorded it counts as exported; a log other peers still need that is damaged or missing is
    /// written again from the store's history.
    func export() throws {
        let status = try store.syncStatus()
        let (own, strangers) = try namespace.logs(of: peer)
        for name in strangers {
            report.findings.append(SyncFinding(code: "log.stranger", severity: "warning", peer: peer, file: "\(namespace.logFolder(peer))/\(name)",
                                               message: "is not a log file name; sync leaves it alone", hint: "move it out of the container"))
        }
        var published = status.exportedSequence
        if let newest = own.last, newest.last > published {
            // Logs past what the store recorded: published by a run killed before it recorded them
            // (the same transactions), or by another copy of this peer (a store restored from a backup).
            if let divergence = try firstDivergence(of: own, exported: published, issued: status.localSequence) {
                throw divergenceError(at: divergence, issued: status.localSequence)
            }
            published = newest.last
            if !options.dryRun { try store.recordExported(through: published) }
        }
        if !options.dryRun { try rewriteUnusableOwnLogs(own, through: published) }
        while true {
            let encoder = TransactionLogEncoder()
            let more = try store.exportTransactions(after: published, into: encoder, maxChanges: options.changesPerLog)
            guard let last = encoder.lastSequence else { break }
            report.exportedTransactions += encoder.transactionCount
            report.exportedChanges += encoder.changeCount
            if !options.dryRun {
                report.logsWritten.append(try publish(encoder))
                try CrashPoint.reach("sync.log.published")
                try store.recordExported(through: last)
                try CrashPoint.reach("sync.log.recorded")
            }
            published = last
            if !more { break }
        }
    }

    /// Writes `encoder`'s transactions as a log of this peer.
    private func publish(_ encoder: TransactionLogEncoder) throws -> String {
        let header = LogHeader(contentName: namespace.contentName, modelHash: namespace.modelHash, peer: peer,
                               firstSequence: encoder.firstSequence ?? 0, lastSequence: encoder.lastSequence ?? 0,
                               transactions: encoder.transactionCount, changes: encoder.changeCount, latestClock: encoder.latestClock.rawValue,
                               account: store.metadata.accountToken)
        return try namespace.publishLog(header: header, body: encoder.bytes)
    }

    /// Own logs that some other peer has not imported yet, and that are damaged or missing, are
    /// written again from the store's history (a damaged file is moved aside first: a peer only
    /// ever changes its own files). A log found sound by an earlier run and unchanged since is not
    /// read again (``OwnLogChecks``).
    private func rewriteUnusableOwnLogs(_ own: [LogName], through published: Int64) throws {
        let needed = try lowestImportOfThisPeer()
        // The note only saves reading: one that cannot be read or kept costs the reading, not the sync.
        var checks = OwnLogChecks(note: (try? store.localNote(OwnLogChecks.noteName)) ?? nil)
        var checked: Set<String> = []
        let now = Date()
        var expected = needed + 1
        for name in own where name.last > needed {
            if name.first > expected, expected <= published {
                try rewrite(from: expected, through: min(name.first - 1, published), replacing: nil)
            }
            let path = namespace.logPath(name, of: peer)
            let identity = namespace.logIdentity(name, of: peer)
            checked.insert(path)
            if let identity, checks.isKnownSound(path, identity: identity, now: now) {
                report.ownLogsUnchanged += 1
            } else {
                do {
                    // Whole and this peer's (checksum and header); its body was checked when written.
                    report.ownLogsRead += 1
                    _ = try namespace.readLog(name, of: peer, decodingBody: false)
                    // Trusted later only if nothing wrote it while it was read.
                    if let identity, namespace.logIdentity(name, of: peer) == identity {
                        checks.recordSound(path, identity: identity, now: now)
                    }
                } catch is ContainerError {
                    try rewrite(from: name.first, through: name.last, replacing: name)
                }
            }
            expected = max(expected, name.last + 1)
        }
        // Missing after the last log that is there (or every log missing).
        if expected <= published { try rewrite(from: expected, through: published, replacing: nil) }
        checks.keepOnly(checked)
        if checks.changed { try? store.setLocalNote(OwnLogChecks.noteName, to: (try? checks.note()) ?? nil) }
    }

    private func rewrite(from first: Int64, through last: Int64, replacing damaged: LogName?) throws {
        let encoder = TransactionLogEncoder()
        try store.exportTransactions(after: first - 1, through: last, into: encoder, maxChanges: .max)
        guard encoder.firstSequence == first, encoder.lastSequence == last else {
            // Archived: a peer that lacks them starts from the baseline that holds them.
            if last <= baselineCoverageOfThisPeer() { return }
            report.findings.append(SyncFinding(code: "log.unrecoverable", severity: "warning", peer: peer,
                                               message: "this peer's transactions \(first)–\(last) are needed by another peer, but the store no longer holds them all",
                                               hint: "restore the log files from an archive (`storekeep archive restore`)"))
            return
        }
        if let damaged {
            let path = namespace.logPath(damaged, of: peer)
            try namespace.moveAside(damaged, of: peer)
            report.findings.append(SyncFinding(code: "log.rewritten", severity: "warning", peer: peer, file: path,
                                               message: "this peer's own log was damaged; it was moved aside and written again from the store",
                                               hint: "check the disk or share that holds the container"))
        }
        report.logsWritten.append(try publish(encoder))
    }

    /// The smallest of what the other peers' manifests say they imported of this peer (0 for a
    /// peer whose manifest says nothing of it); forgotten peers (`storekeep peers forget`) do not
    /// count, as they do not for `archive`.
    private func lowestImportOfThisPeer() throws -> Int64 {
        var lowest = Int64.max
        let peers = try namespace.peers()
        let forgotten = ForgottenPeers.all(in: namespace, peers: peers)
        for other in peers where other != peer && !forgotten.contains(other) {
            let manifest = try? namespace.manifest(of: other)
            lowest = min(lowest, manifest?.imported[peer] ?? 0)
        }
        return lowest == .max ? 0 : lowest
    }

    /// How far the namespace's newest baseline holds this peer's transactions: a peer that needs
    /// them gets them from it, so logs up to there need not be written again.
    private func baselineCoverageOfThisPeer() -> Int64 {
        guard let newest = try? namespace.baselines().last else { return 0 }
        return namespace.baselineHeader(newest)?.vector[peer] ?? 0
    }

    /// Makes `repair`'s deterministic fixes after an import (``ImportFixer``): after this run's
    /// import, or after an earlier run's that was stopped before its fixes (the store says so).
    ///
    /// - Returns: whether fixes were looked for (so that what they made is exported next).
    @discardableResult
    func fixIfNeeded(imported: Bool, path: String) throws -> Bool {
        guard !options.dryRun, try imported || store.importFixPending() else { return false }
        report.fixes += try ImportFixer(path: path).run()
        try CrashPoint.reach("sync.fixed")
        try store.clearImportFixPending()
        return true
    }

    /// Reports the peers of the same content name that sync with another model version, and which
    /// side is on the newer one where the manifests and the store's own lineage tell (a store made
    /// by `migrate` from a storekeep store knows the model versions it came from).
    func reportOtherModels() {
        guard let others = try? namespace.otherModels() else { return }
        let ownLineage = (try? store.modelLineage()) ?? []
        for (hash, peers) in others.sorted(by: { $0.key < $1.key }) where !peers.isEmpty {
            let other = SyncNamespace(container: namespace.container, contentName: namespace.contentName, modelHash: hash)
            let manifests = peers.compactMap { try? other.manifest(of: $0) }
            let version = manifests.first?.modelVersion ?? "unknown"
            let theirs = "model version '\(version)' (hash \(hash.prefix(12)))", ours = "this store's '\(store.metadata.modelVersion)'"
            let message = "peers \(peers.joined(separator: ", ")) sync content name \(namespace.contentName) with \(theirs), not \(ours): their changes and this store's do not reach each other"
            let hint: String
            if manifests.contains(where: { $0.migratedFrom?.contains(namespace.modelHash) == true }) {
                hint = "'\(version)' is the newer version (those peers were migrated from this one): migrate this store to it first (`storekeep migrate STORE --to NEW.store --model BUNDLE`), then sync the migrated store"
            } else if ownLineage.contains(hash) {
                hint = "'\(version)' is an older version (this store was migrated from it): those peers migrate their stores to '\(store.metadata.modelVersion)' (`storekeep migrate`), then sync"
            } else {
                hint = "which version is newer cannot be told from the container; the peers on the older one migrate their stores (`storekeep migrate`), then sync"
            }
            report.findings.append(SyncFinding(code: "peer.otherModel", severity: "warning", file: other.path, message: message, hint: hint))
        }
    }

    /// Publishes this peer's manifest.
    func publishManifest(enabled: Bool) throws {
        let status = try store.syncStatus()
        try namespace.write(PeerManifest(
            peer: peer, contentName: namespace.contentName, modelHash: namespace.modelHash, modelVersion: store.metadata.modelVersion,
            storeFormat: store.metadata.formatVersion, exported: status.exportedSequence, imported: status.watermarks,
            syncEnabled: enabled, lastSeen: Date(), account: store.metadata.accountToken,
            migratedFrom: try store.modelLineage().nilIfEmpty))
        try CrashPoint.reach("sync.manifest.published")
    }

    /// The report, with where the store stands now.
    func finish() throws -> SyncReport {
        let status = try store.syncStatus()
        report.exportedThrough = status.exportedSequence
        report.watermarks = status.watermarks
        return report
    }
}

extension Array {
    /// `nil` when empty.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
