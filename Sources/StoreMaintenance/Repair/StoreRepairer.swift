import Foundation
import ObjectModel
import SyncStore

/// Plans and applies the fixes for what ``StoreChecker`` finds in one store (`storekeep repair`).
///
/// A run takes the store's lock (taking over a stale one), checks the store, plans the fixes
/// (``RepairPlanner``: deterministic, so two peers with the same content make the same choices;
/// rehearsed on the store, so the plan includes what its own fixes cause), makes a consistent
/// backup when the plan changes anything, applies every database fix in one save with the history
/// author `storekeep.repair` (all or nothing; the change reaches other peers like any other save),
/// removes orphaned files, and checks again. A second run finds nothing left to do. A dry run makes
/// the same plan and stops there.
///
/// ```swift
/// let report = try StoreRepairer(path: "speeches.store", options: RepairOptions(dryRun: true)).run()
/// report.plan.fixes.map(\.description)
/// ```
public struct StoreRepairer: Sendable {
    /// The history author of every repair.
    public static let author = "storekeep.repair"

    /// The store to repair.
    public let path: String
    /// How to run.
    public let options: RepairOptions

    /// Findings that mean the store's structure is damaged: repair refuses to work on such a store.
    static let structuralCodes: Set<CheckCode> = [
        .sqliteIntegrity, .metadataFormatVersion, .metadataMissingKey, .metadataModelUnreadable,
        .metadataModelInconsistent, .schemaMismatch,
    ]

    /// Creates a repairer for the store at `path`.
    public init(path: String, options: RepairOptions = RepairOptions()) {
        self.path = path
        self.options = options
    }

    /// Plans, and unless this is a dry run, applies.
    ///
    /// - Throws: ``MaintenanceError`` when the store cannot be checked (its failure kind), when its
    ///   structure is damaged (`badInput`: restore a backup instead), when it is busy (`storeBusy`),
    ///   or when the backup cannot be made (`cannotCreateOutput`); `StoreError` when writing fails
    ///   (nothing is changed then: the save is one transaction). The lock is released in every case.
    public func run() throws -> RepairReport {
        let started = Date()
        let cutoff = started.addingTimeInterval(-options.orphanGracePeriod)
        guard !options.dryRun else {
            let (plan, _) = try planFromCheck(cutoff: cutoff, tookOver: nil)
            return RepairReport(path: path, dryRun: true, plan: plan, seconds: Date().timeIntervalSince(started))
        }
        let lock = try StoreLock.acquire(for: path, command: "storekeep repair")
        defer { lock.release() }
        let (plan, store) = try planFromCheck(cutoff: cutoff, tookOver: lock.tookOverStaleLock)
        var report = RepairReport(path: path, dryRun: false, plan: plan)
        report.fixesApplied = plan.fixes.filter { $0.action == .takeOverStaleLock }.count
        let databaseFixes = plan.fixes.filter { ![.removeOrphanedFile, .takeOverStaleLock].contains($0.action) }
        let fileFixes = plan.fixes.filter { $0.action == .removeOrphanedFile }
        if !databaseFixes.isEmpty || !fileFixes.isEmpty {
            if options.backup { (report.backup, report.backupLeftOut) = try makeBackup(of: store) }
            let applied = try RepairApplier(store: store).apply(databaseFixes)
            report.fixesApplied += applied.done
            report.skipped = applied.skipped
            if !fileFixes.isEmpty {
                let files = try RepairApplier(store: store).removeFiles(fileFixes, modifiedBefore: cutoff)
                report.fixesApplied += files.done
                report.skipped += files.skipped
                report.recentFilesKept = files.tooRecent
            }
        }
        report.applied = true
        let repaired = options.only ?? RepairPlanner.repairableCodes
        // Filtered in place, the check's report gone: a million findings are not held twice.
        report.remaining = StoreChecker(options: CheckOptions(depth: .quick)).check(storeAt: path).findings
        report.remaining.removeAll { !repaired.contains($0.code) || $0.code == .lockStale }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Checks the store (every finding, no limit), plans the fixes and rehearses them.
    ///
    /// - Parameter tookOver: the stale lock this run took over (a real run): its check cannot see
    ///   it any more, so its fix is planned from the lock, with the words a dry run uses.
    func planFromCheck(cutoff: Date, tookOver: StoreLock.Owner?) throws -> (RepairPlan, SyncStore) {
        var checkOptions = CheckOptions(depth: .quick, findingLimit: nil)
        checkOptions.contentOnly = options.contentOnlyCheck
        let check = StoreChecker(options: checkOptions).check(storeAt: path)
        if let failure = check.error {
            throw MaintenanceError(path: path, problem: "cannot be checked, so it cannot be repaired: \(failure.message)",
                                   hint: failure.hint, failureKind: failure.kind)
        }
        if let damage = check.findings.first(where: { Self.structuralCodes.contains($0.code) }) {
            throw MaintenanceError(path: path, problem: "the store's structure is damaged (\(damage.code.rawValue): \(damage.message)); repair only fixes records, links and files",
                                   hint: "restore the store from a backup; `storekeep check --full` lists what is damaged", failureKind: .badInput)
        }
        let store = try SyncStore.open(at: path, readOnly: options.dryRun)
        let groupMembers = check.findings.filter { $0.code == .seedDuplicate }.flatMap { $0.records ?? [] }.map { GlobalID($0.globalID) }
        let userModified = Set(try store.userModifiedRecords(among: groupMembers).map(\.rawValue))
        var planner = RepairPlanner(model: store.model, userModified: userModified, backPointer: { target, inverse in
            (try? store.related(inverse, of: GlobalID(target)))?.first?.rawValue
        }, only: options.only)
        planner.orphanCutoff = cutoff
        planner.orphanGracePeriod = options.orphanGracePeriod
        planner.fileModified = { file in
            (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date
        }
        planner.staleLockOwner = { file in
            if case .stale(let owner) = StoreLock.status(of: file) { return owner }
            return nil
        }
        var firstOrder = planner.plan(for: check.findings)
        if let tookOver {
            firstOrder.fixes.insert(RepairPlanner.staleLockFix(file: StoreLock.lockPath(for: path), owner: tookOver), at: 0)
        }
        let blobs = store.blobDirectory
        let plan = try store.rehearse { rehearsal in
            try planner.completing(firstOrder, findings: check.findings, rehearsal: rehearsal) { digest in
                blobs.appendingPathComponent(String(digest.prefix(2))).appendingPathComponent(digest).path
            }
        }
        return (plan, store)
    }

    /// A consistent copy beside the store, named after the time: `<store>.repair-<UTC time>.backup`.
    ///
    /// Returns it, and the entries of the blob folder it left out (links are never followed).
    ///
    /// - Throws: ``MaintenanceError`` `cannotCreateOutput` (exit 73) when it cannot be made, full
    ///   disk included; nothing of the partial copy is left behind, and the store is unchanged.
    private func makeBackup(of store: SyncStore) throws -> (String, [String]) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: Date())
        var candidate = "\(path).repair-\(stamp).backup"
        var attempt = 1
        while FileManager.default.fileExists(atPath: candidate) || FileManager.default.fileExists(atPath: candidate + ".blobs") {
            attempt += 1
            candidate = "\(path).repair-\(stamp)-\(attempt).backup"
        }
        var leftOut: [String] = []
        do {
            try store.backup(to: candidate) { leftOut.append($0) }
        } catch let error as StoreError {
            throw MaintenanceError(
                path: path, problem: "\(error.message); nothing was repaired (the backup comes first)",
                hint: "free space beside the store (the backup needs about as much as the store) and run the repair again, or use --no-backup if the store is backed up some other way",
                failureKind: .cannotCreateOutput)
        }
        return (candidate, leftOut)
    }
}
