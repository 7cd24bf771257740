import Foundation
import ObjectModel
import SyncStore

/// Checks stores against the invariants of `docs/checks.md`, without writing to them.
///
/// Every check reads the store in one SQLite read transaction, so it sees one consistent state
/// even beside a running writer. A store that no process has open (no `-wal`, no `-shm`) is read as
/// an immutable file, which creates no `-wal`/`-shm`; if a writer touched it meanwhile, the check
/// runs again as an ordinary read transaction.
///
/// ```swift
/// let checker = StoreChecker(options: CheckOptions(depth: .full))
/// let report = checker.check(storeAt: "speeches.store")
/// for finding in report.findings { print(finding.code.rawValue, finding.globalIDs, finding.message) }
/// let all = checker.check(storesAt: paths, jobs: 4)   // in the order given
/// ```
public struct StoreChecker: Sendable {
    /// What is checked.
    public let options: CheckOptions

    /// Creates a checker.
    public init(options: CheckOptions = CheckOptions()) {
        self.options = options
    }

    /// Checks one store. Never throws: a store that cannot be checked gives a report with status
    /// ``CheckStatus/failed`` and its ``StoreCheckReport/error``.
    public func check(storeAt path: String) -> StoreCheckReport {
        let started = Date()
        func failed(_ failure: CheckFailure) -> StoreCheckReport {
            StoreCheckReport(path: path, depth: options.depth, findings: [], error: failure, seconds: Date().timeIntervalSince(started))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return failed(CheckFailure(kind: .missingInput, message: "\(path): no such store", hint: "check the path"))
        }
        guard !isFolder.boolValue else {
            return failed(CheckFailure(kind: .badInput, message: "\(path): is a folder, not a store", hint: "give the path of the store file"))
        }
        guard let header = FileHandle(forReadingAtPath: path) else {
            return failed(CheckFailure(kind: .missingInput, message: "\(path): cannot be read", hint: "check the file's permissions"))
        }
        let magic = (try? header.read(upToCount: 16)) ?? Data()
        try? header.close()
        guard FileContent.isSQLite(magic) else {
            return failed(CheckFailure(kind: .badInput, message: "\(path): is not a SQLite database",
                                       hint: "give the path of a store made by storekeep"))
        }
        let lock = StoreLock.status(of: StoreLock.lockPath(for: path))
        do {
            if let before = StoreFileState(path: path), before.isClosed {
                do {
                    let context = try inspect(path: path, immutable: true, lock: lock, started: started)
                    if StoreFileState(path: path) == before { return report(context, readMode: "immutable", started: started) }
                } catch let abort as CheckAbort where StoreFileState(path: path) == before {
                    return failed(abort.failure)
                } catch {
                    // Not readable as an immutable file (or changed meanwhile): read it as SQLite's readers do.
                }
            }
            let context = try inspect(path: path, immutable: false, lock: lock, started: started)
            return report(context, readMode: "snapshot", started: started)
        } catch let abort as CheckAbort {
            return failed(abort.failure)
        } catch let error as StoreInspectionError where error.kind == .rollbackPending {
            return failed(CheckFailure(
                kind: .storeBusy,
                message: "\(path): cannot be read: a process writing it (a migration loading it, say) was killed part-way through a commit, which SQLite must roll back from \(path)-journal first",
                hint: "run the command that was writing again (a migration resumes where it stopped), then check; do not delete the -journal file"))
        } catch let error as StoreInspectionError {
            let busy = error.kind == .busy
            return failed(CheckFailure(kind: busy ? .storeBusy : .badInput, message: "\(path): cannot be read: \(error.message)",
                                       hint: busy ? "another process holds the store exclusively; try again later" : "the file may be damaged or not a store"))
        } catch {
            return failed(CheckFailure(error: error))
        }
    }

    /// Checks several stores, at most `jobs` at a time, and returns their reports in the order given.
    public func check(storesAt paths: [String], jobs: Int = 1) -> [StoreCheckReport] {
        let results = ReportSlots(count: paths.count)
        let slots = DispatchSemaphore(value: max(1, jobs))
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "storekeep.check", attributes: .concurrent)
        for (index, path) in paths.enumerated() {
            slots.wait()
            group.enter()
            queue.async {
                results.set(index, check(storeAt: path))
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        return results.reports
    }

    private func inspect(path: String, immutable: Bool, lock: StoreLock.Status, started: Date) throws -> CheckContext {
        let inspector = StoreInspector(path: path, access: immutable ? .immutable : .snapshot)
        var integrity: BackgroundWork<[String]>?
        defer { _ = try? integrity?.wait() }
        // One read transaction for every detector: one consistent state beside any writer.
        return try inspector.inspect { inspection in
            let context = CheckContext(inspection: inspection, path: path, options: options, started: started)
            try MetadataDetector.requireStore(context)
            // SQLite's own check reads every page on one core: it runs on a connection of its own,
            // on another thread, while the detectors below read the records on this one.
            let depth = options.depth
            integrity = options.contentOnly ? nil : BackgroundWork(name: "storekeep.integrity") {
                try inspector.integrityCheck(full: depth == .full)
            }
            try run(MetadataDetector.check, "the metadata", context)
            try run(SchemaDetector.check, StoreLayoutDescription.columnTable, context)
            try run(RecordDetector.check, "the records", context)
            try run(ToOneDetector.check, "the to-one relationships", context)
            try run(JoinRowDetector.check, "the join tables", context)
            try run(RelationshipCountDetector.check, "the to-many relationships", context)
            try run(DuplicateDetector.check, "singletons, seeds and uniqueness constraints", context)
            try run({ try SeedStoreDetector.check($0, inspector: inspector) }, "the seed stores", context)
            try run(HistoryDetector.check, "the history", context)
            try run(SyncStateDetector.check, "the sync counters", context)
            try run(StoreTableValueDetector.check, "the values of storekeep's tables", context)
            if !options.contentOnly {
                try run({ try BlobDetector.check($0, writerMayBeActive: !immutable) }, "the external binary values", context)
                try run({ try MigrationDetector.check($0, lock: lock) }, "the migration history", context)
                LockDetector.check(context, status: lock)
            }
            let lines = integrity.map { work in Result { try work.wait() } }
            integrity = nil
            if let lines { try run({ IntegrityDetector.report(try lines.get(), depth: depth, to: $0) }, "the integrity check", context) }
            return context
        }
    }

    /// Runs one detector; a table SQLite cannot read becomes a ``CheckCode/sqliteIntegrity`` finding
    /// and the check goes on with the next detector. A busy database stops the check.
    private func run(_ detector: (CheckContext) throws -> Void, _ what: String, _ context: CheckContext) throws {
        do {
            try detector(context)
        } catch let error as StoreInspectionError where error.kind != .busy {
            context.add(.sqliteIntegrity) {
                CheckFinding(code: .sqliteIntegrity, message: "reading \(what) failed: \(error.message)",
                             hint: "the file or its layout is damaged; restore the store from a backup")
            }
        }
    }

    private func report(_ context: CheckContext, readMode: String, started: Date) -> StoreCheckReport {
        context.collector.sortForReport()
        return StoreCheckReport(path: context.path, depth: options.depth, findings: context.collector.findings,
                                omitted: context.collector.omitted, modelVersion: context.model?.versionName, readMode: readMode,
                                seconds: Date().timeIntervalSince(started))
    }
}

/// The reports of a parallel run, filled in by index from several threads.
private final class ReportSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [StoreCheckReport?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ report: StoreCheckReport) {
        lock.lock()
        slots[index] = report
        lock.unlock()
    }

    var reports: [StoreCheckReport] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
