import Foundation
import ObjectModel
import SyncContainer
import SyncStore

/// `storekeep sync`: exports a store's new transactions into a container, imports every other
/// peer's, merges them, fixes what the merge broke, and publishes the peer's manifest
/// (`docs/container.md`).
///
/// A run takes the store's lock (waiting while another run holds it), so two runs for one store
/// take turns; runs for different peers of one container go on side by side, each writing only
/// its own files. Killed at any point, the next run picks up: a log published but not yet recorded
/// as exported is found in the container; imports are whole SQLite transactions with their
/// watermarks.
///
/// ```swift
/// let report = try StoreSynchronizer(path: "speeches.store", container: "/mnt/share/sync").run()
/// report.importedTransactions   // ["B": 12]
/// ```
public struct StoreSynchronizer: Sendable {
    /// The history author of the fixes made after an import.
    public static let importAuthor = "storekeep.import"

    /// The store.
    public let path: String
    /// The container folder (it must exist; the namespace folders inside are created as needed).
    public let container: String
    /// How to run.
    public let options: SyncOptions

    /// Creates a synchronizer.
    public init(path: String, container: String, options: SyncOptions = SyncOptions()) {
        self.path = path
        self.container = URL(fileURLWithPath: container).standardizedFileURL.path
        self.options = options
    }

    /// Exports, imports, fixes, exports the fixes, and publishes the manifest.
    ///
    /// - Throws: ``MaintenanceError`` (container missing, a seed store, store busy, store behind its own logs),
    ///   `StoreError`, ``ContainerError`` for a write that fails. Logs that cannot be used are not
    ///   errors: they are findings in the report, and everything else is still done.
    public func run() throws -> SyncReport {
        let started = Date()
        CrashPoint.install()
        try requireContainer()
        let lock = options.dryRun ? nil : try StoreLock.acquire(for: path, command: "storekeep sync", waitingUpTo: options.lockTimeout)
        defer { lock?.release() }
        let store = try SyncStore.open(at: path, readOnly: options.dryRun)
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        let status = try store.syncStatus()
        var report = SyncReport(store: path, container: container, contentName: store.metadata.contentName, modelHash: store.metadata.modelHash,
                                peer: store.metadata.peerID, dryRun: options.dryRun, syncEnabled: true)
        if !status.enabled && status.everEnabled {
            report.syncEnabled = false
            report.findings.append(SyncFinding(code: "sync.disabled", severity: "warning", message: "sync is switched off for this store: nothing was exported or imported",
                                               hint: "switch it on with `storekeep sync STORE --container DIR --enable`"))
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        if !options.dryRun, !status.enabled || status.container != container {
            try store.setSyncEnabled(true, container: container)
        }
        let session = SyncSession(store: store, namespace: namespace, options: options, report: report)
        // A rekeyed content name: follow it (once per hop; a chain of rekeys is followed to its end).
        for _ in 0..<8 {
            guard let redirect = try session.namespace.redirect() else { break }
            guard try session.followRedirect(redirect, path: path) else {
                report = try session.finish()
                report.seconds = Date().timeIntervalSince(started)
                return report
            }
        }
        if let newPeerID = options.newPeerID {
            guard !options.dryRun else {
                throw MaintenanceError(path: path, problem: "--new-peer-id does not go with --dry-run", hint: "run it without --dry-run", failureKind: .usage)
            }
            try session.continueUnderNewPeerID(newPeerID, path: path)
        }
        if let conflict = try session.accountConflict() {
            session.report.findings.append(conflict)
            report = try session.finish()
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        try session.export()
        try session.publishAccountBaselineIfPending()
        try session.applyBaselineIfNeeded()
        let imported = try session.importAll()
        if try session.fixIfNeeded(imported: imported, path: path) { try session.export() }
        session.reportOtherModels()
        if !options.dryRun { try session.publishManifest(enabled: true) }
        report = try session.finish()
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Switches sync on or off for the store (article 5): while off, `sync` neither exports nor
    /// imports, and history keeps being recorded; nothing unexported is ever pruned. Switched on
    /// again, export resumes after the last transaction exported. The peer's manifest says so, so
    /// that archiving keeps what it has not imported.
    public func setEnabled(_ enabled: Bool) throws -> SyncReport {
        let started = Date()
        try requireContainer()
        let lock = try StoreLock.acquire(for: path, command: "storekeep sync --\(enabled ? "enable" : "disable")", waitingUpTo: options.lockTimeout)
        defer { lock.release() }
        let store = try SyncStore.open(at: path)
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        try store.setSyncEnabled(enabled, container: container)
        let session = SyncSession(store: store, namespace: namespace, options: options,
                                  report: SyncReport(store: path, container: container, contentName: store.metadata.contentName,
                                                     modelHash: store.metadata.modelHash, peer: store.metadata.peerID, dryRun: false, syncEnabled: enabled))
        try session.publishManifest(enabled: enabled)
        var report = try session.finish()
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private func requireContainer() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container, isDirectory: &isFolder) else {
            throw MaintenanceError(path: container, problem: "no such container folder",
                                   hint: "create the shared folder (or mount the share) first; storekeep creates what goes inside it",
                                   failureKind: .missingInput)
        }
        guard isFolder.boolValue else {
            throw MaintenanceError(path: container, problem: "is a file, not a container folder", hint: "give the shared folder's path", failureKind: .badInput)
        }
    }
}
