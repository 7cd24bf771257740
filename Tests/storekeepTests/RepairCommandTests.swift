import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// End-to-end tests of `storekeep repair` through the built binary, on the SpeechTimer model.
@Suite("storekeep repair")
struct RepairCommandTests {
    /// A SpeechTimer store with two copies of one built-in speech type (a speech on each) and two Settings records.
    private func brokenStore(in directory: TemporaryDirectory) throws -> (path: String, speeches: [GlobalID]) {
        let path = directory.url.appendingPathComponent("s.store").path
        let model = try ModelLoader.load(path: ModelFiles.speechTimer, version: nil)
        let store = try SyncStore.create(at: path, model: model, contentName: "SpeechTimer")
        var speeches: [GlobalID] = []
        for id in ["T-2", "T-1"] {
            try store.save(author: "storekeep.seed") { tx in
                try tx.insert("SpeechType", id: GlobalID(id), values: [
                    "name": .string("Toast"), "greenSeconds": .double(60), "yellowSeconds": .double(90), "redSeconds": .double(120),
                ], seed: SeedMark(set: "speechtimer.builtin-types", version: 1))
            }
            speeches.append(try store.save(author: "app") { tx in
                let speech = try tx.insert("Speech", values: [
                    "title": .string("on \(id)"), "speakerName": .string("Ann"), "date": .date(Date(timeIntervalSince1970: 0)),
                    "duration": .double(75),
                ])
                try tx.setToOne("type", of: speech, to: GlobalID(id))
                return speech
            })
            try store.save(author: "app") { try $0.insert("Settings") }
        }
        return (path, speeches)
    }

    @Test("dry run plans and changes nothing; the run backs up, fixes, and a second run finds nothing")
    func repairsDuplicates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, speeches) = try brokenStore(in: directory)
        let before = try SyncStore.open(at: path, readOnly: true).contentDigest()

        let dryRun = try StorekeepProcess.run(["repair", path, "--dry-run", "--json"])
        #expect(dryRun.status == 0, "\(dryRun)")
        let planned = try dryRun.jsonObject()
        let plannedFixes = try #require((planned["plan"] as? [String: Any])?["fixes"] as? [[String: Any]])
        #expect(Set(plannedFixes.compactMap { $0["code"] as? String }) == ["seed.duplicate", "singleton.duplicate"])
        #expect(plannedFixes.first { $0["code"] as? String == "seed.duplicate" }?["keeper"] as? String == "T-1")
        #expect(try SyncStore.open(at: path, readOnly: true).contentDigest() == before)

        let check = try StorekeepProcess.run(["check", path])
        #expect(check.status == 2, "\(check)")

        let run = try StorekeepProcess.run(["repair", path, "--json"])
        #expect(run.status == 0, "\(run)")
        let report = try run.jsonObject()
        #expect(report["applied"] as? Bool == true)
        let backup = try #require(report["backup"] as? String)
        #expect(try SyncStore.open(at: backup, readOnly: true).contentDigest() == before)

        let store = try SyncStore.open(at: path, readOnly: true)
        #expect(try store.globalIDs(of: "SpeechType") == [GlobalID("T-1")])
        #expect(try store.globalIDs(of: "Settings").count == 1)
        for speech in speeches { #expect(try store.related("type", of: speech) == [GlobalID("T-1")]) }
        #expect(try store.transactions().last?.author == "storekeep.repair")

        #expect(try StorekeepProcess.run(["check", path]).status == 0)
        let again = try StorekeepProcess.run(["repair", path])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("nothing to repair"))
    }

    @Test("findings repair leaves (policy keep) exit 1 and are listed with a hint")
    func leftoversExitOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, _) = try brokenStore(in: directory)
        let typeless = try SyncStore.open(at: path).save(author: "app") { tx in
            try tx.insert("Speech", values: ["speakerName": .string("Bo"), "date": .date(Date()), "duration": .double(1)])
        }
        let result = try StorekeepProcess.run(["repair", path, "--no-backup", "--json"])
        #expect(result.status == 1, "\(result)")
        let leftovers = try #require((try result.jsonObject()["plan"] as? [String: Any])?["leftovers"] as? [[String: Any]])
        let typelessLeftovers = leftovers.filter { ($0["globalIDs"] as? [String])?.contains(typeless.rawValue) == true }
        // The title takes its default (""); the required type is missing, and the policy is keep.
        #expect(typelessLeftovers.compactMap { $0["code"] as? String } == ["record.requiredRelationship"])
        #expect(typelessLeftovers.allSatisfy { ($0["hint"] as? String)?.isEmpty == false })
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!files.contains { $0.contains(".repair-") }, "--no-backup made a backup: \(files)")
        let text = try StorekeepProcess.run(["repair", path, "--no-backup"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("left for you"))
    }

    @Test("an unknown --only code is a usage error (64); a store locked by a live process is busy (75)")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, _) = try brokenStore(in: directory)
        let usage = try StorekeepProcess.run(["repair", path, "--only", "seed.dupe"])
        #expect(usage.status == 64, "\(usage)")
        #expect(usage.stderr.contains("seed.dupe"))

        let lock = try StoreLock.acquire(for: path, command: "test")
        defer { lock.release() }
        let busy = try StorekeepProcess.run(["repair", path])
        #expect(busy.status == 75, "\(busy)")
        #expect(try SyncStore.open(at: path, readOnly: true).globalIDs(of: "SpeechType").count == 2)
    }
}
