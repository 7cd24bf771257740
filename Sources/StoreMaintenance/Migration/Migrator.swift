import Foundation
import ObjectModel
import SyncStore

/// Runs a migration from a ``MigrationSource`` into a new store, in batches that each commit their
/// records, history and checkpoint together, so that a killed run resumes where it stopped and ends
/// with the same content as an uninterrupted one.
///
/// ```swift
/// let migrator = Migrator(source: source, target: "new.store", options: MigrationOptions())
/// let report = try migrator.run { progress in print(progress.done) }
/// report.verified   // counts and digests of what was read match what was written
/// ```
public struct Migrator {
    /// The history author of migration batches.
    public static let author = "storekeep.migrate"

    /// The source.
    public let source: any MigrationSource
    /// The target store path.
    public let target: String
    /// How to run.
    public let options: MigrationOptions

    /// Creates a migrator.
    public init(source: any MigrationSource, target: String, options: MigrationOptions) {
        self.source = source
        self.target = target
        self.options = options
    }

    /// What identifies this migration: the source's fingerprint, the mapping checksum and the target model hash.
    public var key: String {
        SHA256.hexDigest(of: "\(source.fingerprint)|\(source.checksum)|\(source.targetModel.versionHash)")
    }

    /// What the run would do; writes nothing.
    public func plan() throws -> MigrationPlan {
        try requireTargetIsNoFolder()
        try source.validate()
        try source.wholeSourceCheck(besideTheLoad: false)?()
        let dropped = try droppedData()
        let model = source.targetModel
        var mode = "new"
        var written: [String: Int] = [:]
        if FileManager.default.fileExists(atPath: target) {
            let store = try SyncStore.open(at: target, expecting: model, readOnly: true)
            let runs = try store.migrations().filter { $0.key == key }
            if runs.contains(where: { $0.success == true }) {
                mode = "alreadyCompleted"
            } else if let open = runs.last(where: { $0.finished == nil }) {
                mode = "resume"
                written = try store.checkpoints(migration: open.id).mapValues(\.rows)
            } else {
                try requireEmpty(store)
            }
        }
        let streams = try source.streams.map {
            MigrationPlan.Stream(stream: $0.name, entity: $0.entity, estimatedRows: try $0.estimatedCount(), alreadyWritten: written[$0.name] ?? 0)
        }
        var steps = [FileManager.default.fileExists(atPath: target)
            ? "open \(target) (made for \(model.name) \(model.versionName))"
            : "create \(target) for \(model.name) \(model.versionName) (content name \(options.contentName ?? contentName(for: model)))"]
        steps += streams.map { "read \($0.stream) into \($0.entity) in batches of \(options.batchSize) records, checkpointing each batch" }
        steps += ["verify per-entity counts and the digest of what was read against what was written",
                  "record the run in the store's migration history"]
        return MigrationPlan(source: source.location, sourceKind: source.kindDescription, modelNote: source.modelNote, target: target,
                             model: "\(model.name) \(model.versionName)", modelHash: model.versionHash, mode: mode,
                             streams: streams, steps: mode == "alreadyCompleted" ? ["nothing: this migration has already completed"] : steps,
                             droppedData: dropped)
    }

    /// What the source holds that the migration does not carry to the target (``MigrationSource/droppedData()``).
    ///
    /// - Throws: ``MaintenanceError`` (`badInput`) when there is some and ``MigrationOptions/refusesDroppedData`` is set.
    private func droppedData() throws -> [DroppedData] {
        let dropped = try source.droppedData()
        if options.refusesDroppedData, !dropped.isEmpty {
            throw MaintenanceError(
                path: source.location,
                problem: "the migration would drop stored data the target version has no place for: "
                    + dropped.map { "\($0.words), in \($0.step)" }.joined(separator: "; "),
                hint: "to carry it, write a step file for that step (docs/steps.md: a rename with 'from:', a conversion); "
                    + "to accept the loss, as Core Data's own migration would, run without --refuse-dropped-data",
                failureKind: .badInput)
        }
        return dropped
    }

    /// Runs (or resumes) the migration.
    ///
    /// Takes the target's lock (``StoreLock``) for the whole run; a lock left by a killed run is taken over.
    ///
    /// - Parameter progress: called after every batch.
    /// - Returns: the report; its outcome is `stoppedAtRejectedRecord` when `--on-error stop` met a rejected record.
    /// - Throws: the source's errors, `StoreError`, ``MaintenanceError``.
    public func run(progress: (MigrationProgress) -> Void = { _ in }) throws -> MigrationReport {
        try requireTargetIsNoFolder()
        try source.validate()
        let dropped = try droppedData()
        let lock = try StoreLock.acquire(for: target, command: "storekeep migrate")
        defer { lock.release() }
        var report = try runCheckingWholeSource(progress: progress)
        report.tookOverStaleLock = lock.tookOverStaleLock
        report.droppedData = dropped
        return report
    }

    /// Runs the source's whole-source check (``MigrationSource/wholeSourceCheck(besideTheLoad:)``)
    /// and the migration.
    ///
    /// Into a new target the check runs on a thread of its own beside the load (it reads all of a
    /// property list while the load reads the mapped part, each on one core), leaving to the load
    /// what the load checks itself; when either finds the source damaged, the target this run
    /// created is removed and the damage is the run's error (the check's first). A run stopped at a
    /// rejected record checks the whole source before it ends, since its load did not read all of
    /// what the check left to it. Into an existing target (a resumed run) the whole check runs
    /// first, so that nothing is written into the store on a damaged source.
    private func runCheckingWholeSource(progress: (MigrationProgress) -> Void) throws -> MigrationReport {
        // Only files this run makes may be removed: when anything of a store is already at the
        // target path (even a stray `-wal` or blob folder), the check runs first instead.
        guard SyncStore.existingFiles(ofStoreAt: target).isEmpty,
              !FileManager.default.fileExists(atPath: RejectionReport.path(for: target)) else {
            try source.wholeSourceCheck(besideTheLoad: false)?()
            return try load(progress: progress)
        }
        guard let check = try source.wholeSourceCheck(besideTheLoad: true) else { return try load(progress: progress) }
        let checking = BackgroundWork(name: "storekeep.check-source", check)
        // A failed check stops the load at its next batch: the target is removed anyway.
        let outcome = Result { try load(progress: progress, abandonWhen: { checking.hasFailed }) }
        var damage: (any Error)?
        do {
            try checking.wait()
        } catch {
            damage = error
        }
        if damage == nil, case .failure(let error) = outcome, source.isDamage(error) { damage = error }
        // A run stopped at a rejected record has not read the rest of what the check left to it.
        if damage == nil, case .success(let report) = outcome, report.outcome == .stoppedAtRejectedRecord {
            do { try source.wholeSourceCheck(besideTheLoad: false)?() } catch { damage = error }
        }
        if let damage {
            // Every file was made by this run, and its writing is over: the committer and the store's
            // blob queue have finished (BatchCommitter.finish). A connection the run's threads still
            // hold for a moment only closes its handles on the removed files.
            SyncStore.removeFiles(ofStoreAt: target)
            try? FileManager.default.removeItem(atPath: RejectionReport.path(for: target))
            throw damage
        }
        return try outcome.get()
    }

    /// Opens or creates the target and runs (or resumes) the streams, then builds indexes and verifies.
    private func load(progress: (MigrationProgress) -> Void, abandonWhen: @escaping () -> Bool = { false }) throws -> MigrationReport {
        let model = source.targetModel
        let store = try openTarget(model: model)
        let runs = try store.migrations().filter { $0.key == key }
        if let done = runs.last(where: { $0.success == true }) {
            return try report(store: store, runID: done.id, outcome: .alreadyCompleted, resumed: false, seconds: [:], verified: true)
        }
        let unfinished = runs.last { $0.finished == nil }
        if unfinished == nil { try requireEmpty(store) }
        // The batches append pages: through a rollback journal each is written once (BulkLoad.Commits.appending).
        let load = try store.beginBulkLoad(
            key: key, version: model.versionName,
            description: "\(source.kindDescription) → \(model.name) \(model.versionName)",
            source: source.location, checksum: source.checksum, files: source.appliedFiles, author: Migrator.author, commits: .appending)
        let run = load.run
        if !source.sourceModelHashes.isEmpty { try store.recordModelLineage(source.sourceModelHashes) }
        // A source SQLite can copy from is attached read-only; when that fails, its records go one by one.
        if options.copiesWithSQL, let copySource = source.copySourcePath { try? load.attachCopySource(at: copySource) }
        defer { load.detachCopySource() }
        let checkpoints = try load.checkpoints()
        let estimates = try source.streams.map { try $0.estimatedCount() }
        let grandTotal = estimates.contains(where: { $0 == nil }) ? nil : estimates.compactMap { $0 }.reduce(0, +)
        var doneThisRun = 0
        var seconds: [String: Double] = [:]
        for (index, stream) in source.streams.enumerated() {
            let started = Date()
            let committer = BatchCommitter(load: load)
            var runner = StreamRunner(
                stream: stream, load: load, options: options, committer: committer,
                checkpoint: checkpoints[stream.name] ?? MigrationCheckpoint(stream: stream.name, position: -1, rows: 0, rejected: 0))
            runner.abandonWhen = abandonWhen
            let stopped: MigrationRejection?
            do {
                stopped = try runner.run { done, handledNow in
                    progress(MigrationProgress(stream: stream.name, entity: stream.entity, done: done, total: estimates[index],
                                               doneThisRun: doneThisRun + handledNow, grandTotal: grandTotal))
                }
            } catch {
                // What was handed over still commits (each batch with its checkpoint) before the error goes up.
                try? committer.finish()
                load.detachCopySource()
                try? load.endAppending()
                throw error
            }
            try committer.finish()
            doneThisRun += runner.handledThisRun
            seconds[stream.name] = Date().timeIntervalSince(started)
            if let stopped {
                load.detachCopySource()
                try load.endAppending()
                try RejectionReport.write([stopped], for: target)
                var result = try report(store: store, runID: run.id, outcome: .stoppedAtRejectedRecord, resumed: unfinished != nil,
                                        seconds: seconds, verified: false)
                result.stoppedAt = "\(stopped.stream)[\(stopped.position)]: \(stopped.reason)"
                result.rejectedReport = RejectionReport.path(for: target)
                return result
            }
        }
        load.detachCopySource()
        try verifyTallies(load)
        source.finishReading()
        // Back to WAL mode: the verification reads on its own connection while the indexes are built.
        try load.endAppending()
        let content = try buildIndexesAndVerify(load)
        try load.finish(success: true)
        let rejections = try load.rejections()
        var result = try report(store: store, runID: run.id, outcome: .completed, resumed: unfinished != nil, seconds: seconds, verified: true)
        if !rejections.isEmpty {
            try RejectionReport.write(rejections, for: target)
            result.rejectedReport = RejectionReport.path(for: target)
        }
        result.digest = content.digest
        return result
    }

    /// A new target is a bulk load: it is created without its secondary indexes, built once at the end.
    private func openTarget(model: ManagedModel) throws -> SyncStore {
        if FileManager.default.fileExists(atPath: target) {
            return try SyncStore.open(at: target, expecting: model, buildingPendingIndexes: false)
        }
        return try SyncStore.create(at: target, model: model, contentName: options.contentName ?? contentName(for: model),
                                    peerID: options.peerID, deferIndexes: true)
    }

    /// Builds the indexes the bulk load left out and verifies what was written, at the same time:
    /// a read connection verifies on a second thread (it reads the records in storage order and
    /// needs no index) while this one builds the indexes, so the two phases overlap on two cores.
    ///
    /// - Returns: the store's content digest, from the verification pass.
    private func buildIndexesAndVerify(_ load: BulkLoad) throws -> ContentDigest {
        let expected = try expectedRecords(load)
        let reader = try SyncStore.open(at: target, readOnly: true)
        let verification = BackgroundWork(name: "storekeep.verify") { try reader.contentDigestAndRecordSums() }
        let built = Result { try reportingDuplicates { try load.buildIndexes() } }
        let verified = Result { try verification.wait() }
        try built.get()
        let (content, sums) = try verified.get()
        for (entity, wanted) in expected.sorted(by: { $0.key < $1.key }) {
            let (count, sum) = sums[entity] ?? (0, RecordDigestSum())
            guard count == wanted.rows, sum == wanted.sum else {
                try load.finish(success: false)
                throw MaintenanceError(
                    path: target,
                    problem: "verification failed for \(entity): \(wanted.rows) records read, \(count) in the store\(count == wanted.rows ? ", with different content" : "")",
                    hint: "keep the source; report this with the command line (the target is not trustworthy)",
                    failureKind: .internalFailure)
            }
        }
        return content
    }

    /// Checks that the streams read (wrote or rejected) every item the source holds, counted part by
    /// part without them (``MigrationSource/tallies()``): a row no stream read would otherwise be
    /// lost while the digests of what was read still match.
    private func verifyTallies(_ load: BulkLoad) throws {
        let checkpoints = try load.checkpoints()
        for tally in try source.tallies() {
            let read = tally.streams.reduce(0) { total, name in total + (checkpoints[name].map { $0.rows + $0.rejected } ?? 0) }
            guard read == tally.count else {
                try? load.endAppending()
                try load.finish(success: false)
                throw MaintenanceError(
                    path: target,
                    problem: "verification failed: \(tally.part) of \(source.location) holds \(tally.count) items, but the migration read \(read) of them (written or rejected)",
                    hint: "keep the source; report this with the command line (the target is not trustworthy)",
                    failureKind: .internalFailure)
            }
        }
    }

    /// Two records with one global ID, found when the unique index is built, are the source's fault.
    private func reportingDuplicates(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreError where error.reason == .invalidRequest {
            throw MaintenanceError(
                path: source.location, problem: "cannot finish the migration into \(target): \(error.message)",
                hint: error.hint ?? "correct the source, then migrate into a new target", failureKind: .badInput)
        }
    }

    /// Per entity, the records the streams wrote and the sum of their line digests (from the checkpoints).
    private func expectedRecords(_ load: BulkLoad) throws -> [String: (rows: Int, sum: RecordDigestSum)] {
        let checkpoints = try load.checkpoints()
        var expected: [String: (rows: Int, sum: RecordDigestSum)] = [:]
        for stream in source.streams {
            let checkpoint = checkpoints[stream.name] ?? MigrationCheckpoint(stream: stream.name, position: -1, rows: 0, rejected: 0)
            var entry = expected[stream.entity] ?? (0, RecordDigestSum())
            entry.rows += checkpoint.rows
            entry.sum.add(checkpoint.digest)
            expected[stream.entity] = entry
        }
        return expected
    }

    private func contentName(for model: ManagedModel) -> String {
        SyncName.made(from: model.name)
    }

    /// The target is a store file: a folder at its path is an output that cannot be created.
    private func requireTargetIsNoFolder() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue else { return }
        throw MaintenanceError(
            path: target, problem: "is a folder; a migration writes its target as a store file",
            hint: "give the path of a new store file, such as \((target as NSString).appendingPathComponent("new.store"))",
            failureKind: .cannotCreateOutput)
    }

    /// A target that exists must be empty unless it holds an unfinished run of this very migration.
    private func requireEmpty(_ store: SyncStore) throws {
        let records = try store.liveRecordCounts().values.reduce(0, +)
        let history = try store.historySummary()
        let runs = try store.migrations()
        if let failed = runs.last(where: { $0.key == key && $0.success == false }) {
            throw MaintenanceError(
                path: target,
                problem: "the target holds a run of this same migration that failed its verification (run \(failed.id), \(failed.rows) records written): its content is not trustworthy and it is not resumed",
                hint: "keep the source; migrate into a new target path, and report the failure with the command line",
                failureKind: .cannotCreateOutput)
        }
        guard records == 0, history.transactions == 0, runs.isEmpty else {
            throw MaintenanceError(
                path: target, problem: "the target already holds data (\(records) records, \(history.transactions) transactions) that this migration did not write",
                hint: "migrate into a new target path", failureKind: .cannotCreateOutput)
        }
    }

    private func report(store: SyncStore, runID: Int64, outcome: MigrationReport.Outcome, resumed: Bool,
                        seconds: [String: Double], verified: Bool) throws -> MigrationReport {
        let checkpoints = try store.checkpoints(migration: runID)
        let streams = source.streams.map { stream -> MigrationReport.Stream in
            let checkpoint = checkpoints[stream.name]
            let written = checkpoint?.rows ?? 0
            let rejected = checkpoint?.rejected ?? 0
            return MigrationReport.Stream(stream: stream.name, entity: stream.entity, read: written + rejected, written: written,
                                          rejected: rejected, seconds: seconds[stream.name] ?? 0)
        }
        let model = source.targetModel
        return MigrationReport(
            outcome: outcome, source: source.location, sourceKind: source.kindDescription, modelNote: source.modelNote,
            target: target, model: "\(model.name) \(model.versionName)", migrationID: runID, resumed: resumed, streams: streams,
            verified: verified, digest: outcome == .alreadyCompleted ? try store.contentDigest().digest : nil,
            rejectedReport: nil, stoppedAt: nil, tookOverStaleLock: nil)
    }
}
