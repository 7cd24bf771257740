import Foundation
import ObjectModel
import SyncStore

/// Plans and applies the fixes for what ``StoreChecker`` finds in one store (`storekeep repair`).
///
/// A run takes the store's lock (taking over a stale one), checks the store, plans the fixes
/// (``RepairPlanner``: deterministic, so two peers with the same content make the same choices),
/// makes a consistent backup, applies every database fix in one save with the history author
/// `storekeep.repair` (all or nothing; the change reaches other peers like any other save), removes
/// orphaned files, and checks again. A second run finds nothing left to do.
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
    ///   structure is damaged (`badInput`: restore a backup instead), or when it is busy (`storeBusy`);
    ///   `StoreError` when writing fails (nothing is changed then: the save is one transaction).
    public func run() throws -> RepairReport {
        let started = Date()
        guard !options.dryRun else {
            let (plan, _) = try planFromCheck()
            return RepairReport(path: path, dryRun: true, plan: plan, seconds: Date().timeIntervalSince(started))
        }
        let lock = try StoreLock.acquire(for: path, command: "storekeep repair")
        defer { lock.release() }
        let (planned, store) = try planFromCheck()
        var plan = planned
        if let stale = lock.tookOverStaleLock, options.only?.contains(.lockStale) ?? true {
            var fix = RepairFix(code: .lockStale, action: .takeOverStaleLock,
                                description: "took over the lock file left by process \(stale.pid) (\(stale.command)), which no longer exists")
            fix.file = StoreLock.lockPath(for: path)
            plan.fixes.insert(fix, at: 0)
        }
        var report = RepairReport(path: path, dryRun: false, plan: plan)
        let databaseFixes = plan.fixes.filter { ![.removeOrphanedFile, .takeOverStaleLock].contains($0.action) }
        let fileFixes = plan.fixes.filter { $0.action == .removeOrphanedFile }
        if !databaseFixes.isEmpty || !fileFixes.isEmpty {
            if options.backup { report.backup = try makeBackup(of: store) }
            report.skipped = try apply(databaseFixes, to: store)
            if !fileFixes.isEmpty {
                let cutoff = Date().addingTimeInterval(-options.orphanGracePeriod)
                let result = try store.removeUnreferencedBlobs(fileFixes.compactMap(\.blobHash), modifiedBefore: cutoff)
                report.recentFilesKept = result.tooRecent
                report.skipped += result.referenced.map { "file \($0) is referred to after all: kept" }
            }
        }
        report.applied = true
        let after = StoreChecker(options: CheckOptions(depth: .quick)).check(storeAt: path)
        let repaired = options.only ?? RepairPlanner.repairableCodes
        report.remaining = after.findings.filter { repaired.contains($0.code) && $0.code != .lockStale }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Checks the store (every finding, no limit) and plans the fixes.
    func planFromCheck() throws -> (RepairPlan, SyncStore) {
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
        let planner = RepairPlanner(model: store.model, userModified: userModified, backPointer: { target, inverse in
            (try? store.related(inverse, of: GlobalID(target)))?.first?.rawValue
        }, only: options.only)
        return (planner.plan(for: check.findings), store)
    }

    /// A consistent copy beside the store, named after the time: `<store>.repair-<UTC time>.backup`.
    private func makeBackup(of store: SyncStore) throws -> String {
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
        try store.backup(to: candidate)
        return candidate
    }

    /// Applies the database fixes in one save; returns the fixes that found nothing left to do.
    func apply(_ fixes: [RepairFix], to store: SyncStore, author: String = StoreRepairer.author) throws -> [String] {
        guard !fixes.isEmpty else { return [] }
        return try store.save(author: author) { tx in
            var skipped: [String] = []
            func exists(_ id: String) throws -> Bool { try tx.entity(of: GlobalID(id)) != nil }
            for fix in fixes {
                switch fix.action {
                case .nullifyReference:
                    for id in fix.globalIDs where try exists(id) {
                        if try !tx.clearInvalidReference(fix.property ?? "", of: GlobalID(id)) {
                            skipped.append("\(id).\(fix.property ?? "?") no longer points at an invalid target")
                        }
                    }
                case .releaseSlot:
                    for id in fix.globalIDs where try exists(id) {
                        if try !tx.releaseUnreturnedReference(fix.property ?? "", of: GlobalID(id)) {
                            skipped.append("\(id).\(fix.property ?? "?") agrees with its partner now")
                        }
                    }
                case .removeJoinRow:
                    if let table = fix.table, let owner = fix.owner, let target = fix.target {
                        _ = try tx.removeJoinRow(in: table, owner: GlobalID(owner), target: GlobalID(target))
                    }
                case .mergeDuplicates:
                    guard let keeper = fix.keeper, try exists(keeper) else {
                        skipped.append("merge into \(fix.keeper ?? "?"): the record to keep no longer exists")
                        continue
                    }
                    for duplicate in fix.removed ?? [] where try exists(duplicate) {
                        try tx.merge(GlobalID(duplicate), into: GlobalID(keeper))
                    }
                case .deleteRecord:
                    for id in fix.globalIDs where try exists(id) {
                        if let blocker = try tx.deletionBlocker(of: GlobalID(id)) {
                            skipped.append("\(fix.entity ?? "record") \(id) not deleted: \(blocker)")
                        } else {
                            try tx.delete(GlobalID(id))
                        }
                    }
                case .realignSyncCounters:
                    if try !tx.realignSyncCounters() { skipped.append("the sync counters already agree with the history") }
                case .removeOrphanedFile, .takeOverStaleLock:
                    continue
                }
            }
            return skipped
        }
    }
}
