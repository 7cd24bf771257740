import Foundation
import ObjectModel
import SyncContainer
import SyncStore

/// `storekeep archive`: moves the transaction logs every registered peer has imported out of the
/// container into a verified tar archive, and their history out of the store (article 5: never
/// what a peer has not imported, never what this peer has not exported).
///
/// The all-peer watermark is, per peer, the smallest of what every registered peer's manifest
/// says it imported of it (and of what that peer exported); every peer with a folder in the
/// namespace is registered unless forgotten (`storekeep peers forget`). A baseline of the store
/// is written beside the logs that stay, so that a new peer starts from it; the archive (the
/// covered logs and the baselines a rekey left, with a manifest of SHA-256 sums) is written
/// durably and read back; only then are the logs removed from the container and the history from the store.
/// Stopped at any point, running it again finishes: an archive already written for the same logs
/// is verified and used.
public struct StoreArchiver: Sendable {
    /// The store.
    public let path: String
    /// The container folder.
    public let container: String
    /// How to run.
    public let options: ArchiveOptions

    /// Creates an archiver.
    public init(path: String, container: String, options: ArchiveOptions = ArchiveOptions()) {
        self.path = path
        self.container = URL(fileURLWithPath: container).standardizedFileURL.path
        self.options = options
    }

    /// Archives what every registered peer has imported (or says what it would).
    ///
    /// - Throws: ``MaintenanceError`` (no container, a seed store, the store busy), `StoreError`,
    ///   ``ContainerError``.
    public func run() throws -> ArchiveReport {
        let started = Date()
        CrashPoint.install()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container, isDirectory: &isFolder), isFolder.boolValue else {
            throw MaintenanceError(path: container, problem: "no such container folder", hint: "give the shared folder the store syncs through",
                                   failureKind: .missingInput)
        }
        let lock = options.dryRun ? nil : try StoreLock.acquire(for: path, command: "storekeep archive", waitingUpTo: options.lockTimeout)
        defer { lock?.release() }
        let store = try SyncStore.open(at: path, readOnly: options.dryRun)
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        var report = ArchiveReport(store: path, container: container, contentName: namespace.contentName, modelHash: namespace.modelHash, dryRun: options.dryRun)
        // A run stopped while it removed logs and history: finished first.
        if let pending = try store.pendingPrune() {
            if options.dryRun {
                report.notes.append("an earlier run was stopped after writing \(pending.archive); the next run finishes removing what it holds")
            } else {
                try finish(pending, store: store, namespace: namespace, report: &report)
            }
        }
        let covered = try coveredLogs(store: store, namespace: namespace, report: &report)
        guard !covered.isEmpty else {
            if report.notes.isEmpty { report.notes.append("no log is below the all-peer watermark\(options.olderThan == nil ? "" : " and old enough"): nothing to archive") }
            // A run stopped after its baseline was written leaves the ones before it: they go now.
            if !options.dryRun { try removeSupersededBaselines(in: namespace, checked: nil, report: &report) }
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        report.archivedLogs = covered.count
        report.archivedBytes = covered.reduce(0) { $0 + $1.bytes }
        guard !options.dryRun else {
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        // The baseline new peers start from once these logs have left: the newest one already
        // covers the watermark (an earlier archive's, a rekey's), or a new one is written.
        // A new one is written on another thread while the archive is (the two share no file, and
        // both are done, read back and checked before anything is removed). The thread is waited
        // for on every way out, also when the archive fails: neither it nor the snapshot's read
        // transaction may outlive the command (a thread still hashing while the process exits
        // crashes in libcrypto's cleanup).
        let baseline: BackgroundWork<String>
        if let newest = try namespace.baselines().last, let header = namespace.baselineHeader(newest),
           report.watermark.allSatisfy({ $0.value <= (header.vector[$0.key] ?? 0) }) {
            // Relied on instead of a new one, so read back first: no log leaves for a baseline
            // that cannot give new peers what it held.
            do {
                _ = try namespace.verifyBaseline(newest)
            } catch let error as ContainerError {
                throw ContainerError(error.reason, path: error.path,
                                     message: "\(error.message); it is the newest baseline and covers the logs to archive, so nothing was archived or removed",
                                     hint: "move it out of the baselines folder (new peers cannot start from it anyway); the next archive writes a new one")
            }
            let path = "\(namespace.baselineFolder)/\(newest)"
            baseline = BackgroundWork { path }
        } else {
            baseline = BackgroundWork(name: "storekeep.archive-baseline") {
                let published = try SnapshotBaselines.publish(of: store, into: namespace, reason: "archive")
                return "\(namespace.baselineFolder)/\(published.name)"
            }
        }
        defer { _ = try? baseline.wait() }
        // The archive: written (or found, from a run that was stopped), then read back whole.
        let folder = options.destination ?? "\(namespace.path)/archives"
        try SyncNamespace.makeFolder(folder)
        var digest = SHA256()
        for log in covered { digest.update(log.entry.path + "\n") }
        let archivePath = "\(folder)/\(namespace.contentName)-\(namespace.modelHash.prefix(12))-\(digest.finalizeHex().prefix(16)).tar.zst"
        report.archive = archivePath
        // The logs, and the baselines of rekeys (the start of this namespace's content, which no log
        // holds): restoring every archive of a namespace, oldest first, brings back everything.
        var files = covered.map { ($0.entry, $0.source) }
        for name in try namespace.baselines() where namespace.baselineHeader(name)?.reason == "rekey" {
            files.append((ArchiveManifest.Entry(path: "baselines/\(name)", kind: "baseline", sha256: "", bytes: 0), "\(namespace.baselineFolder)/\(name)"))
        }
        if FileManager.default.fileExists(atPath: archivePath), (try? LogArchive.verify(archivePath)) != nil {
            report.notes.append("the archive of these logs was written by an earlier run; it was verified and kept")
        } else {
            unlink(archivePath)
            let manifest = ArchiveManifest(format: ArchiveManifest.currentFormat, contentName: namespace.contentName, modelHash: namespace.modelHash,
                                           by: store.metadata.peerID, created: Date().timeIntervalSince1970, watermark: report.watermark, entries: [])
            _ = try LogArchive.write(to: archivePath, manifest: manifest, files: files)
            try CrashPoint.reach("archive.written")
            try LogArchive.verify(archivePath)
        }
        report.verified = true
        try CrashPoint.reach("archive.verified")
        report.baseline = try baseline.wait()
        try CrashPoint.reach("archive.baseline.written")
        // Only now: the logs leave the container, the history the store. What is about to go is
        // recorded first, so that a run stopped part-way is finished by the next.
        let pending = PendingPrune(archive: archivePath, files: covered.map(\.source),
                                   through: try pruneVector(covered: covered, watermark: report.watermark, namespace: namespace))
        try store.recordPendingPrune(pending)
        try CrashPoint.reach("archive.removal.recorded")
        try finish(pending, store: store, namespace: namespace, report: &report)
        // The baseline of this run was read back either way: written and checked, or verified above.
        try removeSupersededBaselines(in: namespace, checked: report.baseline, report: &report)
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Removes the earlier baselines archives wrote that the namespace's newest baseline covers
    /// (every peer's number in its vector at least theirs): a peer only ever starts from the
    /// newest, so without this every nightly archive would leave one more copy of the store in the
    /// container. A rekey's baseline stays (its redirect names it, and archives carry it), as does
    /// an account's, and any whose header cannot be read. Nothing goes unless the newest is whole:
    /// read back by this run (`checked`, its path), verified here otherwise.
    private func removeSupersededBaselines(in namespace: SyncNamespace, checked: String?, report: inout ArchiveReport) throws {
        let names = try namespace.baselines()
        guard let newest = names.last, let covering = namespace.baselineHeader(newest) else { return }
        let superseded = names.dropLast().filter { name in
            guard let header = namespace.baselineHeader(name), header.reason == "archive" else { return false }
            return header.vector.allSatisfy { $0.value <= (covering.vector[$0.key] ?? 0) }
        }
        guard !superseded.isEmpty else { return }
        if checked != "\(namespace.baselineFolder)/\(newest)" {
            guard (try? namespace.verifyBaseline(newest)) != nil else {
                report.notes.append("the newest baseline \(newest) does not verify: the earlier baselines are kept")
                return
            }
        }
        for name in superseded {
            let path = "\(namespace.baselineFolder)/\(name)"
            // The archive is done by now: a baseline that cannot go yet (a share that refuses to
            // remove a file another peer holds open) is left for the next run, not an error.
            do {
                if try namespace.remove(path) { report.removedBaselines.append(path) }
            } catch {
                report.notes.append("the earlier baseline \(name) could not be removed (\(error)); the next archive tries again")
            }
            try CrashPoint.reach("archive.baseline.superseded")
        }
    }

    /// Removes what `pending` lists from the container, then the history it covers from the store
    /// (which forgets `pending` in the same SQLite transaction). The archive is verified first
    /// when the record comes from an earlier run; when it no longer verifies, nothing more is
    /// removed (the history stays).
    private func finish(_ pending: PendingPrune, store: SyncStore, namespace: SyncNamespace, report: inout ArchiveReport) throws {
        if report.archive == nil {
            guard (try? LogArchive.verify(pending.archive)) != nil else {
                report.notes.append("an earlier run was stopped after writing \(pending.archive), which no longer verifies: the logs still in the container and the store's history are kept")
                _ = try store.pruneHistory(through: [:])
                return
            }
            report.notes.append("finished the removals of an earlier run that was stopped (archive \(pending.archive))")
        }
        // Every log goes before one flush per folder, and before the history: the store never
        // forgets a transaction whose log could still come back.
        report.removedLogs += try namespace.remove(pending.files) { _ in try CrashPoint.reach("archive.log.removed") }
        let pruned = try store.pruneHistory(through: pending.through)
        report.prunedThrough = pending.through
        report.prunedTransactions += pruned.transactions
        report.prunedChanges += pruned.changes
        try CrashPoint.reach("archive.history.pruned")
    }

    /// Per peer, how far the history may go once `covered` leaves: up to the all-peer watermark,
    /// and never past a log that stays in the container (the store can then still write it again).
    private func pruneVector(covered: [(entry: ArchiveManifest.Entry, source: String, bytes: Int64)], watermark: [String: Int64],
                             namespace: SyncNamespace) throws -> [String: Int64] {
        let leaving = Set(covered.map(\.source))
        var vector: [String: Int64] = [:]
        for (peer, limit) in watermark where limit > 0 {
            let staying = try namespace.logs(of: peer).logs.filter { !leaving.contains(namespace.logPath($0, of: peer)) }
            let through = staying.map { $0.first - 1 }.min().map { min($0, limit) } ?? limit
            if through > 0 { vector[peer] = through }
        }
        return vector
    }

    /// The logs below the all-peer watermark (filled into `report`), oldest first per peer.
    private func coveredLogs(store: SyncStore, namespace: SyncNamespace, report: inout ArchiveReport)
        throws -> [(entry: ArchiveManifest.Entry, source: String, bytes: Int64)] {
        let own = store.metadata.peerID
        let status = try store.syncStatus()
        let peers = Set(try namespace.peers()).union([own])
        let forgotten = ForgottenPeers.all(in: namespace, peers: Array(peers)).subtracting([own])
        let registered = peers.subtracting(forgotten).sorted()
        report.registeredPeers = registered
        report.forgottenPeers = forgotten.sorted()
        var exported: [String: Int64] = [own: status.exportedSequence]
        var imported: [String: [String: Int64]] = [own: status.watermarks]
        let now = Date().timeIntervalSince1970
        for peer in peers.sorted() where peer != own {
            guard let manifest = (try? namespace.manifest(of: peer)) ?? nil else {
                if registered.contains(peer) {
                    report.notes.append("peer \(peer) has no readable manifest: nothing it has not said it imported can leave")
                }
                imported[peer] = [:]
                exported[peer] = 0
                continue
            }
            exported[peer] = manifest.exported
            imported[peer] = manifest.imported
            if let limit = options.forgetAfter, now - manifest.lastSeen > limit, registered.contains(peer) {
                report.silentPeers.append(ArchiveReport.SilentPeer(peer: peer, lastSeen: manifest.lastSeen, days: (now - manifest.lastSeen) / 86_400))
            }
        }
        var covered: [(entry: ArchiveManifest.Entry, source: String, bytes: Int64)] = []
        for peer in peers.sorted() {
            var watermark = exported[peer] ?? 0
            for other in registered where other != peer { watermark = min(watermark, imported[other]?[peer] ?? 0) }
            report.watermark[peer] = watermark
            guard watermark > 0 else { continue }
            for log in try namespace.logs(of: peer).logs where log.last <= watermark {
                let source = namespace.logPath(log, of: peer)
                let attributes = namespace.storage.attributes(of: source)
                // Oldest first, and never past a log too young to go: the logs that stay follow on
                // from what left, and the history is removed only up to them.
                if let limit = options.olderThan, let modified = attributes?.modified, Date().timeIntervalSince(modified) < limit { break }
                let bytes = attributes?.bytes ?? 0
                covered.append((ArchiveManifest.Entry(path: "peers/\(peer)/logs/\(log.fileName)", kind: "log", sha256: "", bytes: bytes,
                                                      peer: peer, firstSequence: log.first, lastSequence: log.last), source, bytes))
            }
        }
        return covered
    }
}
