import Foundation
import ObjectModel
import SyncStore
import Testing

/// End-to-end tests of `storekeep migrate OLD.store --to NEW.store --model BUNDLE` through the built binary.
@Suite("storekeep migrate: older storekeep stores", .serialized)
struct MigrateStoreTests {
    /// The shipped mapping, adapted to model version 1 (`speaker` is not yet `speakerName`).
    private static func versionOneMapping(in directory: TemporaryDirectory) throws -> String {
        var text = try String(contentsOfFile: SpeechTimerData.mapping, encoding: .utf8)
        text = text.replacingOccurrences(of: "model: SpeechTimer.xcdatamodeld", with: "model: \(ModelFiles.speechTimer)\nmodelVersion: SpeechTimer 1")
        text = text.replacingOccurrences(of: "speakerName: speaker", with: "speaker: speaker")
        return try directory.write(text, to: "speechtimer1-v1.mapping.yaml")
    }

    /// A SpeechTimer 1 store made from a generated data file.
    private static func versionOneStore(in directory: TemporaryDirectory, speeches: Int) throws -> String {
        let data = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: speeches, recordingEvery: 25)
        let store = directory.url.appendingPathComponent("v1.store").path
        let result = try StorekeepProcess.run(["migrate", data, "--to", store, "--mapping", try versionOneMapping(in: directory), "--json"])
        guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "cannot make the version 1 store\n\(result)") }
        return store
    }

    /// The store file's bytes and the names of the files beside it that belong to it.
    private static func snapshot(of store: String) throws -> (Data, [String]) {
        let url = URL(fileURLWithPath: store)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(url.lastPathComponent) }.sorted()
        return (try Data(contentsOf: url), siblings)
    }

    @Test("a version 1 store moves to version 2: renamed and added attributes, IDs, seeds and relationships kept, source untouched")
    func versionOneToTwo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.versionOneStore(in: directory, speeches: 300)
        let before = try Self.snapshot(of: old)
        let target = directory.url.appendingPathComponent("v2.store").path
        let arguments = ["migrate", old, "--to", target, "--model", ModelFiles.speechTimer, "--json"]

        let plan = try StorekeepProcess.run(arguments + ["--dry-run"])
        #expect(plan.status == 0, "\(plan)")
        let planned = try plan.jsonObject()
        #expect(planned["mode"] as? String == "new")
        #expect((planned["modelNote"] as? String)?.contains("SpeechTimer 1 → SpeechTimer 2 (inferred") == true)
        #expect((planned["modelNote"] as? String)?.contains("Speech.speaker renamed to speakerName") == true)

        let result = try StorekeepProcess.run(arguments)
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        #expect(report["outcome"] as? String == "completed")
        #expect(report["verified"] as? Bool == true)
        #expect(report["model"] as? String == "SpeechTimer SpeechTimer 2")
        #expect((report["sourceKind"] as? String)?.hasPrefix("storekeep store (SpeechTimer 1") == true)

        let after = try Self.snapshot(of: old)
        #expect(after.0 == before.0, "the old store is byte-identical")
        // A SQLite reader of a WAL-mode store creates its -wal and -shm when absent (docs/limits.md); nothing else appears.
        #expect(after.1.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == before.1, "no other file appeared beside the old store")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: old + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        #expect(walSize == 0, "nothing was written to the old store's log")

        let source = try SyncStore.open(at: old, readOnly: true)
        let migrated = try SyncStore.open(at: target, readOnly: true)
        #expect(migrated.model.versionName == "SpeechTimer 2")
        #expect(migrated.metadata.contentName == source.metadata.contentName)
        let counts = try source.liveRecordCounts()
        #expect(try migrated.liveRecordCounts() == counts)
        #expect(counts["Speech"] == 300)
        for id in try source.globalIDs(of: "Speech") {
            let was = try #require(try source.record(id))
            let now = try #require(try migrated.record(id), "global ID \(id) kept")
            #expect(now.values["speakerName"] == was.values["speaker"])
            #expect(now.values["rating"] == .null)
            #expect(now.values["title"] == was.values["title"])
            #expect(now.values["recording"] == was.values["recording"])
            #expect(now.toOne["type"] == was.toOne["type"])
            #expect(now.toOne["type"] != nil)
        }
        var seeds = 0
        for id in try source.globalIDs(of: "SpeechType") {
            let was = try #require(try source.record(id))
            #expect(try migrated.record(id)?.seed == was.seed)
            if was.seed != nil { seeds += 1 }
            #expect(Set(try migrated.related("speeches", of: id)) == Set(try source.related("speeches", of: id)))
        }
        #expect(seeds > 0)

        let again = try StorekeepProcess.run(arguments)
        #expect(again.status == 0, "\(again)")
        #expect(try again.jsonObject()["outcome"] as? String == "alreadyCompleted")
        #expect(try again.jsonObject()["digest"] as? String == report["digest"] as? String)
    }

    @Test("a store source without --model is a usage error")
    func modelIsRequired() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = directory.url.appendingPathComponent("empty.store").path
        let created = try StorekeepProcess.run(["init", old, "--model", ModelFiles.speechTimer, "--model-version", "SpeechTimer 1", "--content-name", "SpeechTimer"])
        #expect(created.status == 0, "\(created)")
        let result = try StorekeepProcess.run(["migrate", old, "--to", directory.url.appendingPathComponent("new.store").path])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--model"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("new.store").path))
    }

    @Test("SIGKILL part-way, then the same command, gives the uninterrupted result")
    func killAndResume() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.versionOneStore(in: directory, speeches: 12_000)
        let reference = directory.url.appendingPathComponent("reference.store").path
        let whole = try StorekeepProcess.run(["migrate", old, "--to", reference, "--model", ModelFiles.speechTimer, "--batch-size", "100", "--json"])
        #expect(whole.status == 0, "\(whole)")
        let expected = try whole.jsonObject()["digest"] as? String

        let target = directory.url.appendingPathComponent("killed.store").path
        let arguments = ["migrate", old, "--to", target, "--model", ModelFiles.speechTimer, "--batch-size", "100"]
        // Killed twice inside the run, at points read from the target (not after delays, which a
        // loaded or a fast machine moves before or after the work).
        for point in [MigrationKillPoint.recordsCommitted(3_000), .recordsCommitted(7_000)] {
            let killed = try StorekeepProcess.runAndKill(arguments, migratingInto: target, at: point)
            #expect(killed, "the migration ended before it was killed \(point)")
        }
        let resumed = try StorekeepProcess.run(arguments + ["--json"])
        #expect(resumed.status == 0, "\(resumed)")
        let report = try resumed.jsonObject()
        #expect(report["verified"] as? Bool == true)
        #expect(report["resumed"] as? Bool == true)
        #expect(report["digest"] as? String == expected, "the resumed store holds what an uninterrupted run writes")
    }

    @Test("a step that cannot be inferred names the step file it needs; with a step file further on, a chain through it works")
    func stepFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.versionOneStore(in: directory, speeches: 50)
        let bundle = try Self.bundleWithVersionThree(in: directory)
        let target = directory.url.appendingPathComponent("v3.store").path
        let arguments = ["migrate", old, "--to", target, "--model", bundle, "--json"]

        let refused = try StorekeepProcess.run(arguments)
        #expect(refused.status == 65, "\(refused)")
        let error = try refused.jsonError()
        let message = "\(error)"
        // One step straight from the store's version 1 to version 3, as Core Data would take it.
        #expect(message.contains("SpeechTimer 1 to SpeechTimer 3.step.yaml"), "\(refused)")
        #expect(message.contains("Speech.venue is new, required and has no default value"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing written")

        let stepText = """
            # SpeechTimer 2 → 3: ratings become text, every speech gets a venue.
            from: SpeechTimer 2
            to: SpeechTimer 3
            entities:
              - entity: Speech
                attributes:
                  rating: {convert: integer-to-string}
                  venue:
                    value: unknown     # the app never asked before
            """
        try directory.write(stepText, to: "SpeechTimer 2 to SpeechTimer 3.step.yaml")
        let result = try StorekeepProcess.run(arguments)
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        #expect(report["verified"] as? Bool == true)
        #expect((report["modelNote"] as? String)?.contains("SpeechTimer 2 → SpeechTimer 3 (step file SpeechTimer 2 to SpeechTimer 3.step.yaml") == true)
        let migrated = try SyncStore.open(at: target, readOnly: true)
        let speeches = try migrated.globalIDs(of: "Speech")
        #expect(speeches.count == 50)
        for id in speeches {
            let record = try #require(try migrated.record(id))
            #expect(record.values["venue"] == .string("unknown"))
            #expect(record.values["rating"] == .null)
            #expect(record.values["speakerName"] != .null)
        }
        let runs = try migrated.migrations()
        #expect(runs.last?.checksum == SHA256.hexDigest(of: Data(stepText.utf8)))
    }

    /// A copy of the SpeechTimer bundle with a version 3 whose `rating` is a String and whose
    /// `venue` is new and required without a default; returns the bundle's path.
    private static func bundleWithVersionThree(in directory: TemporaryDirectory) throws -> String {
        let copy = directory.url.appendingPathComponent("SpeechTimer.xcdatamodeld")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ModelFiles.speechTimer), to: copy)
        var contents = try String(contentsOf: copy.appendingPathComponent("SpeechTimer 2.xcdatamodel/contents"), encoding: .utf8)
        contents = contents.replacingOccurrences(
            of: #"<attribute name="rating" optional="YES" attributeType="Integer 16" usesScalarValueType="NO"/>"#,
            with: #"<attribute name="rating" optional="YES" attributeType="String"/><attribute name="venue" attributeType="String"/>"#)
        let folder = copy.appendingPathComponent("SpeechTimer 3.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        let current = try String(contentsOf: copy.appendingPathComponent(".xccurrentversion"), encoding: .utf8)
            .replacingOccurrences(of: "SpeechTimer 2.xcdatamodel", with: "SpeechTimer 3.xcdatamodel")
        try Data(current.utf8).write(to: copy.appendingPathComponent(".xccurrentversion"))
        return copy.path
    }
}
