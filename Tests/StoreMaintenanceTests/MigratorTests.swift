import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// An in-memory source: types, then notes that point at them; `failAfter` makes the stream throw
/// part-way, as a killed process would stop.
final class ArraySource: MigrationSource {
    struct Stream: MigrationStream {
        let name: String
        let entity: String
        let items: [MigrationItem]
        let failAfter: Int?
        var yielded: Counter?
        func estimatedCount() throws -> Int? { items.count }
        func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
            var handled = 0
            for item in items {
                yielded?.value += 1
                let itemPosition: Int64
                switch item {
                case .record(let position, _), .rejected(let position, _), .copied(let position, _, _): itemPosition = position
                }
                guard itemPosition > position else { continue }
                if let failAfter, handled == failAfter { throw Interrupted() }
                handled += 1
                if try !body(item) { return }
            }
        }
    }
    struct Interrupted: Error {}
    struct CheckFailed: Error {}
    final class Counter: @unchecked Sendable { var value = 0 }

    static let model = ManagedModel(name: "Notes", versionName: "Notes 1", entities: [
        EntityDescription(name: "Kind", attributes: [.init(name: "name", type: .string)]),
        EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string), .init(name: "size", type: .integer32, isOptional: true)],
                          relationships: [.init(name: "kind", destination: "Kind", isOptional: true)]),
    ])

    var failAfter: Int?
    var badNote: Int?
    let noteCount: Int
    let wholeCheckFails: Bool
    let hasWholeCheck: Bool
    /// The check fails only when it runs whole, not beside the load: damage it leaves to the load.
    let fullCheckFails: Bool
    let failureIsDamage: Bool
    /// Items the notes stream has yielded.
    let notesYielded = Counter()
    /// The `besideTheLoad` of each whole-source check asked for.
    var checksAsked: [Bool] = []
    init(failAfter: Int? = nil, badNote: Int? = nil, notes: Int = 50, wholeCheckFails: Bool = false,
         hasWholeCheck: Bool = false, fullCheckFails: Bool = false, failureIsDamage: Bool = false) {
        self.failAfter = failAfter
        self.badNote = badNote
        self.noteCount = notes
        self.wholeCheckFails = wholeCheckFails
        self.hasWholeCheck = hasWholeCheck || wholeCheckFails || fullCheckFails
        self.fullCheckFails = fullCheckFails
        self.failureIsDamage = failureIsDamage
    }

    func wholeSourceCheck(besideTheLoad: Bool) throws -> (@Sendable () throws -> Void)? {
        guard hasWholeCheck else { return nil }
        checksAsked.append(besideTheLoad)
        let fails = wholeCheckFails || (fullCheckFails && !besideTheLoad)
        return { @Sendable in if fails { throw CheckFailed() } }
    }

    /// With `failureIsDamage`, the stream's interruption stands for damage the load found.
    func isDamage(_ error: any Error) -> Bool {
        failureIsDamage && error is Interrupted
    }

    var kindDescription: String { "test arrays" }
    /// Each stream's items: what a complete run must have read.
    func tallies() throws -> [SourceTally] {
        streams.compactMap { $0 as? Stream }.map { SourceTally(part: "array \($0.name)", count: $0.items.count, streams: [$0.name]) }
    }
    var location: String { "memory" }
    var targetModel: ManagedModel { Self.model }
    var modelNote: String? { nil }
    var fingerprint: String { "fixed" }
    var checksum: String { "-" }
    func validate() throws {}
    var streams: [any MigrationStream] {
        let kinds = (0..<3).map { index in
            MigrationItem.record(position: Int64(index), ImportRecord(entity: "Kind", globalID: GlobalID("kind-\(index)"), values: ["name": .string("k\(index)")]))
        }
        let notes = (0..<noteCount).map { index -> MigrationItem in
            if index == badNote { return .rejected(position: Int64(index), reason: "note \(index) has no text") }
            return .record(position: Int64(index), ImportRecord(
                entity: "Note", globalID: GlobalID("note-\(index)"), values: ["text": .string("n\(index)"), "size": .integer(Int64(index))],
                toOne: ["kind": GlobalID("kind-\(index % 3)")]))
        }
        return [Stream(name: "kinds", entity: "Kind", items: kinds, failAfter: nil, yielded: nil),
                Stream(name: "notes", entity: "Note", items: notes, failAfter: failAfter, yielded: notesYielded)]
    }
}

@Suite struct MigratorTests {
    let folder: URL
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func anInterruptedRunResumesToTheSameContent() throws {
        let options = MigrationOptions(batchSize: 7)
        let whole = try Migrator(source: ArraySource(), target: path("whole.store"), options: options).run()
        #expect(whole.outcome == .completed)
        #expect(whole.verified)
        #expect(whole.streams.map(\.written) == [3, 50])

        let target = path("resumed.store")
        #expect(throws: ArraySource.Interrupted.self) {
            try Migrator(source: ArraySource(failAfter: 23), target: target, options: options).run()
        }
        let partial = try SyncStore.open(at: target, readOnly: true)
        #expect(try partial.liveRecordCounts()["Note"] == 21, "three whole batches of 7 were committed")
        #expect(try partial.migrations().first?.finished == nil)

        let resumed = try Migrator(source: ArraySource(), target: target, options: options).run()
        #expect(resumed.outcome == .completed)
        #expect(resumed.resumed)
        #expect(resumed.verified)
        #expect(resumed.digest == whole.digest)
        #expect(resumed.streams.map(\.written) == [3, 50])

        let again = try Migrator(source: ArraySource(), target: target, options: options).run()
        #expect(again.outcome == .alreadyCompleted)
        #expect(try SyncStore.open(at: target, readOnly: true).historySummary() == SyncStore.open(at: target, readOnly: true).historySummary())
        #expect(again.digest == whole.digest)
    }

    @Test func aFailedWholeSourceCheckRemovesANewTargetAndLeavesAnExistingOneAsItWas() throws {
        let target = path("checked.store")
        let source = ArraySource(notes: 5_000, wholeCheckFails: true)
        #expect(throws: ArraySource.CheckFailed.self) {
            try Migrator(source: source, target: target, options: MigrationOptions(batchSize: 7)).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the new target, its blob folder and lock are gone")
        #expect(source.notesYielded.value < 5_000, "the load stopped at a batch once the check had failed")

        // A stray file of a store at the target path makes it not new: checked first, nothing removed.
        let stray = path("stray.store")
        try FileManager.default.createDirectory(atPath: stray + ".blobs/ab", withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: stray + ".blobs/ab/notes.txt"))
        #expect(throws: ArraySource.CheckFailed.self) {
            try Migrator(source: ArraySource(wholeCheckFails: true), target: stray, options: MigrationOptions()).run()
        }
        #expect(try String(contentsOfFile: stray + ".blobs/ab/notes.txt", encoding: .utf8) == "kept")
        #expect(!FileManager.default.fileExists(atPath: stray), "nothing was created either")

        let existing = path("existing.store")
        let done = try Migrator(source: ArraySource(), target: existing, options: MigrationOptions()).run()
        #expect(throws: ArraySource.CheckFailed.self) {
            try Migrator(source: ArraySource(wholeCheckFails: true), target: existing, options: MigrationOptions()).run()
        }
        let store = try SyncStore.open(at: existing, readOnly: true)
        #expect(try store.contentDigest().digest == done.digest)
        #expect(try store.migrations().count == 1, "nothing was written: the check ran first")
    }

    @Test func damageTheLoadFindsBesideTheCheckRemovesTheNewTargetAndOtherFailuresKeepIt() throws {
        let options = MigrationOptions(batchSize: 7)
        let damaged = ArraySource(failAfter: 23, hasWholeCheck: true, failureIsDamage: true)
        #expect(throws: ArraySource.Interrupted.self) {
            try Migrator(source: damaged, target: path("damaged.store"), options: options).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty,
                "a new target is removed when the load finds damage, as when the check does")
        #expect(damaged.checksAsked == [true], "into a new target the check runs beside the load")

        let kept = path("kept.store")
        #expect(throws: ArraySource.Interrupted.self) {
            try Migrator(source: ArraySource(failAfter: 23, hasWholeCheck: true), target: kept, options: options).run()
        }
        #expect(try SyncStore.open(at: kept, readOnly: true).liveRecordCounts()["Note"] == 21,
                "a failure that is not damage leaves the committed batches to resume from")

        let resuming = ArraySource(hasWholeCheck: true)
        let resumed = try Migrator(source: resuming, target: kept, options: options).run()
        #expect(resumed.outcome == .completed)
        #expect(resuming.checksAsked == [false], "into an existing target the whole check runs first, leaving nothing to the load")

        #expect(throws: ArraySource.CheckFailed.self, "when both find damage, the check's is the run's error") {
            try Migrator(source: ArraySource(failAfter: 23, wholeCheckFails: true, failureIsDamage: true), target: path("both.store"), options: options).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("both.") }.isEmpty)
    }

    @Test func aRunStoppedAtARejectedRecordChecksWhatItsLoadDidNotReach() throws {
        let stoppedOnDamage = ArraySource(badNote: 10, fullCheckFails: true)
        #expect(throws: ArraySource.CheckFailed.self) {
            try Migrator(source: stoppedOnDamage, target: path("t.store"), options: MigrationOptions(batchSize: 4, onError: .stop)).run()
        }
        #expect(stoppedOnDamage.checksAsked == [true, false], "beside the load, then whole once the load stopped")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the new target is removed")

        let stopped = ArraySource(badNote: 10, hasWholeCheck: true)
        let report = try Migrator(source: stopped, target: path("u.store"), options: MigrationOptions(batchSize: 4, onError: .stop)).run()
        #expect(report.outcome == .stoppedAtRejectedRecord, "an undamaged source still stops, target kept")
        #expect(stopped.checksAsked == [true, false])
    }

    @Test func stopHaltsAtTheFirstRejectedRecordAndSkipGoesOn() throws {
        let target = path("t.store")
        let stopped = try Migrator(source: ArraySource(badNote: 10), target: target, options: MigrationOptions(batchSize: 4, onError: .stop)).run()
        #expect(stopped.outcome == .stoppedAtRejectedRecord)
        #expect(stopped.stoppedAt?.contains("note 10 has no text") == true)
        #expect(try SyncStore.open(at: target, readOnly: true).liveRecordCounts()["Note"] == 10)
        #expect(try walHeaderBytes(of: target) == [2, 2], "a stopped run leaves the store in WAL mode, not in the load's journal mode")
        let report = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8)
        #expect(report.contains("\"position\":10"))

        let skipped = try Migrator(source: ArraySource(badNote: 10), target: target, options: MigrationOptions(batchSize: 4, onError: .skip)).run()
        #expect(skipped.outcome == .completed)
        #expect(skipped.streams.last?.written == 49)
        #expect(skipped.streams.last?.rejected == 1)
        #expect(skipped.streams.last?.read == 50)
        let lines = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try walHeaderBytes(of: target) == [2, 2], "a finished run leaves the store in WAL mode")
    }

    /// Bytes 18 and 19 of the SQLite header: 2 and 2 in WAL mode, 1 and 1 with a rollback journal.
    private func walHeaderBytes(of path: String) throws -> [UInt8] {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 18)
        return Array(try handle.read(upToCount: 2) ?? Data())
    }

    @Test func aTargetHoldingOtherDataIsRefused() throws {
        let target = path("busy.store")
        let store = try SyncStore.create(at: target, model: ArraySource.model, contentName: "Notes")
        try store.save(author: "user") { try $0.insert("Kind", values: ["name": .string("mine")]) }
        let error = try #require(throws: MaintenanceError.self) {
            try Migrator(source: ArraySource(), target: target, options: MigrationOptions()).run()
        }
        #expect(error.failureKind == .cannotCreateOutput)
        #expect(try SyncStore.open(at: target, readOnly: true).liveRecordCounts()["Note"] == 0)
    }

    @Test func theDryRunPlanWritesNothing() throws {
        let target = path("plan.store")
        let plan = try Migrator(source: ArraySource(), target: target, options: MigrationOptions()).plan()
        #expect(plan.mode == "new")
        #expect(plan.streams.map(\.estimatedRows) == [3, 50])
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
