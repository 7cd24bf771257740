import Foundation
import ObjectModel
import SyncContainer
import SyncStore

/// `storekeep rekey`: moves a store's content, and in time every peer of it, from its content name
/// to another (article 3: "use a different ubiquitous content name … then migrate the existing
/// data").
///
/// The steps, each safe to run again: sync in the old content name (so the baseline holds what the
/// others exported); write a baseline of the store into the new content name and read it back;
/// leave a redirect in the old content name naming the new one and the baseline; move the store
/// (its transactions after the baseline are exported there next), recording the rekey in its
/// migration history; publish its manifest in the new content name. Stopped at any point, the same
/// command finishes the job. Every other peer follows the redirect on its next `sync`.
///
/// ```swift
/// let report = try StoreRekeyer(path: "speeches.store", container: "/mnt/share", to: "SpeechTimer-v2").run()
/// ```
public struct StoreRekeyer: Sendable {
    /// The store.
    public let path: String
    /// The container folder.
    public let container: String
    /// The new content name.
    public let target: String
    /// How to run.
    public let options: RekeyOptions

    /// Creates a rekeyer.
    public init(path: String, container: String, to target: String, options: RekeyOptions = RekeyOptions()) {
        self.path = path
        self.container = URL(fileURLWithPath: container).standardizedFileURL.path
        self.target = target
        self.options = options
    }

    /// Runs the rekey (or says what it would do).
    ///
    /// - Throws: ``MaintenanceError`` (an unusable name, a content name already rekeyed elsewhere,
    ///   a seed store, a namespace holding another account's data, the store busy), `StoreError`,
    ///   ``ContainerError``.
    public func run() throws -> RekeyReport {
        let started = Date()
        CrashPoint.install()
        guard SyncName.isValid(target) else {
            throw MaintenanceError(path: path, problem: "'\(target)' is not a usable content name",
                                   hint: SyncName.rule, failureKind: .usage)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container, isDirectory: &isFolder), isFolder.boolValue else {
            throw MaintenanceError(path: container, problem: "no such container folder", hint: "create the shared folder (or mount the share) first",
                                   failureKind: .missingInput)
        }
        let lock = options.dryRun ? nil : try StoreLock.acquire(for: path, command: "storekeep rekey", waitingUpTo: options.lockTimeout)
        defer { lock?.release() }
        var store = try SyncStore.open(at: path, readOnly: options.dryRun)
        let source = try SyncNamespace.of(store, at: path, in: container)
        let old = store.metadata.contentName
        var report = RekeyReport(store: path, container: container, from: old, to: target, dryRun: options.dryRun)
        if old == target {
            // Moved by an earlier run stopped before its manifest; or nothing to do.
            report.alreadyMoved = true
            if !options.dryRun { try publishManifest(of: store) }
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        let destination = try SyncNamespace.of(store, at: path, in: container, contentName: target)
        if let existing = try source.redirect(), existing.to != target {
            throw MaintenanceError(path: source.redirectPath, problem: "content name \(old) was already rekeyed to \(existing.to) by peer \(existing.by)",
                                   hint: "sync the store (it follows that rekey), then rekey from \(existing.to) if another move is still wanted",
                                   failureKind: .badInput)
        }
        // 1. Sync in the old content name, so that the baseline holds what the others exported.
        let status = try store.syncStatus()
        if status.enabled || !status.everEnabled {
            let synced = try syncOld(store: store, namespace: source)
            report.exportedTransactions = synced.exportedTransactions
            report.importedTransactions = synced.importedTransactions.values.reduce(0, +)
            store = try SyncStore.open(at: path, readOnly: options.dryRun)
        }
        try CrashPoint.reach("rekey.synced")
        // 2. The baseline of the new content name (the redirect's, when an earlier run got that far):
        // a snapshot of the store's files, copied, then read back and checked.
        guard !options.dryRun else {
            // Counted, not kept: the parts are dropped as they are encoded.
            let encoder = BaselineEncoder(handingOnEvery: SnapshotBaselines.partBytes) { _ in }
            _ = try store.exportBaseline(into: encoder)
            report.baselineRecords = encoder.records
            report.baselineMemberships = encoder.memberships
            report.baselineTombstones = encoder.tombstones
            report.baseline = "\(destination.baselineFolder)/(new)"
            report.redirect = source.redirectPath
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        let baseline: String
        let baselineSHA: String
        let covered: BaselineHeader
        if let existing = try source.redirect() {
            baseline = existing.baseline
            baselineSHA = existing.baselineSHA256
            (covered, _) = try destination.verifyBaseline(existing.baseline)
        } else {
            // Read back and checked before it was published.
            let published = try SnapshotBaselines.publish(of: store, into: destination, reason: "rekey")
            try CrashPoint.reach("rekey.baseline.written")
            baseline = published.name
            baselineSHA = published.sha256
            covered = published.header
        }
        report.baselineRecords = covered.records
        report.baselineMemberships = covered.memberships
        report.baselineTombstones = covered.tombstones
        report.baseline = "\(destination.baselineFolder)/\(baseline)"
        try CrashPoint.reach("rekey.baseline.verified")
        // 3. The redirect in the old content name.
        try source.writeRedirect(Redirect(from: old, to: target, modelHash: store.metadata.modelHash, modelVersion: store.metadata.modelVersion,
                                          by: store.metadata.peerID, at: Date(), baseline: baseline, baselineSHA256: baselineSHA))
        report.redirect = source.redirectPath
        try CrashPoint.reach("rekey.redirect.written")
        // 4. Move the store: what the baseline holds of its own transactions is exported.
        try store.switchContentName(to: target, exportedThrough: covered.vector[store.metadata.peerID] ?? 0,
                                    description: "rekey: content name \(old) → \(target), baseline \(baseline)")
        try CrashPoint.reach("rekey.switched")
        store = try SyncStore.open(at: path)
        // 5. The manifest in the new content name.
        try publishManifest(of: store)
        try CrashPoint.reach("rekey.manifest.published")
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private func syncOld(store: SyncStore, namespace: SyncNamespace) throws -> SyncReport {
        let session = SyncSession(store: store, namespace: namespace, options: SyncOptions(dryRun: options.dryRun, changesPerLog: options.changesPerLog),
                                  report: SyncReport(store: path, container: container, contentName: namespace.contentName,
                                                     modelHash: namespace.modelHash, peer: store.metadata.peerID, dryRun: options.dryRun, syncEnabled: true))
        // Like sync: never into, or from, a namespace of another account.
        if let conflict = try session.accountConflict() {
            throw MaintenanceError(path: conflict.file ?? namespace.path, problem: conflict.message, hint: conflict.hint, failureKind: .badInput)
        }
        if !options.dryRun { try store.setSyncEnabled(true, container: container) }
        try session.export()
        if try session.fixIfNeeded(imported: try session.importAll(), path: path) { try session.export() }
        if !options.dryRun { try session.publishManifest(enabled: true) }
        return try session.finish()
    }

    private func publishManifest(of store: SyncStore) throws {
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        let session = SyncSession(store: store, namespace: namespace, options: SyncOptions(),
                                  report: SyncReport(store: path, container: container, contentName: namespace.contentName,
                                                     modelHash: namespace.modelHash, peer: store.metadata.peerID, dryRun: false, syncEnabled: true))
        try session.publishManifest(enabled: true)
    }
}
