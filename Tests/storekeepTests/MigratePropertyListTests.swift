import Foundation
import ObjectModel
import SyncStore
import Testing

/// End-to-end tests of `storekeep migrate` on Speech Timer 1 property lists, through the built binary.
@Suite("storekeep migrate: property lists")
struct MigratePropertyListTests {
    @Test("binary and XML files migrate completely, with seeds, relationships and blobs, to the same content")
    func bothFormats() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let binary = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 300)
        let xml = try SpeechTimerData.write(in: directory, name: "data.xml", speeches: 300, format: "xml")
        let facts = try SpeechTimerData.facts(of: binary)
        var digests: [String] = []
        for (source, target) in [(binary, "b.store"), (xml, "x.store")] {
            let targetPath = directory.url.appendingPathComponent(target).path
            let result = try StorekeepProcess.run(["migrate", source, "--to", targetPath, "--mapping", SpeechTimerData.mapping, "--json"])
            #expect(result.status == 0, "\(result)")
            let report = try result.jsonObject()
            #expect(report["outcome"] as? String == "completed")
            #expect(report["verified"] as? Bool == true)
            let streams = report["streams"] as? [[String: Any]] ?? []
            #expect(streams.map { $0["entity"] as? String ?? "" } == ["SpeechType", "Speech", "Settings"])
            #expect(streams.map { $0["written"] as? Int ?? -1 } == [facts["types"] as? Int ?? 0, facts["speeches"] as? Int ?? 0, 1])
            digests.append(report["digest"] as? String ?? "")

            let store = try SyncStore.open(at: targetPath, readOnly: true)
            let speeches = try store.globalIDs(of: "Speech")
            #expect(speeches.count == facts["speeches"] as? Int)
            var withRecording = 0
            for id in speeches {
                let record = try #require(try store.record(id))
                if record.values["recording"] != .null { withRecording += 1 }
                #expect(record.toOne["type"] != nil, "every speech has its type")
            }
            #expect(withRecording == facts["recordings"] as? Int)
            let blobFiles = FileManager.default.enumerator(atPath: store.blobDirectory.path)?.compactMap { $0 as? String }.filter { $0.count > 40 } ?? []
            #expect(blobFiles.count == facts["large"] as? Int, "recordings over 4 KB are blob files")

            let first = try #require(try store.record(GlobalID(facts["firstID"] as? String ?? "")))
            #expect(first.values["title"] == .string(facts["firstTitle"] as? String ?? ""))
            let typeID = try #require(first.toOne["type"])
            let type = try #require(try store.record(typeID))
            #expect(type.values["name"] == .string(facts["firstType"] as? String ?? ""))
            let seeded = try store.globalIDs(of: "SpeechType").compactMap { try store.record($0) }.filter { $0.seed != nil }
            #expect(seeded.count == facts["builtIn"] as? Int)
            #expect(seeded.allSatisfy { $0.seed == SeedMark(set: "speechtimer.builtin-types", version: 1) })
            let settings = try store.globalIDs(of: "Settings")
            #expect(settings.count == 1)
            #expect(try store.migrations().last?.success == true)
        }
        #expect(digests[0] == digests[1], "the XML and binary files hold the same data")
    }

    @Test("--dry-run prints the plan and writes nothing; a second run changes nothing")
    func dryRunAndRerun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 50)
        let target = directory.url.appendingPathComponent("t.store").path
        let plan = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--dry-run", "--json"])
        #expect(plan.status == 0, "\(plan)")
        let document = try plan.jsonObject()
        #expect(document["mode"] as? String == "new")
        #expect((document["streams"] as? [[String: Any]])?.map { $0["estimatedRows"] as? Int ?? -1 } == [7, 50, 1])
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["data.plist"])

        let first = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--json"]).jsonObject()
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let again = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("already migrated"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        let digest = try StorekeepProcess.run(["digest", target, "--json"]).jsonObject()
        #expect(digest["digest"] as? String == first["digest"] as? String)
        let secondPlan = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--dry-run", "--json"]).jsonObject()
        #expect(secondPlan["mode"] as? String == "alreadyCompleted")
    }

    @Test("a record that cannot be written stops the run (65) with a report; --on-error skip resumes and goes on")
    func rejectedRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 40, badTypeAt: 17)
        let target = directory.url.appendingPathComponent("t.store").path
        let stopped = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--batch-size", "5"])
        #expect(stopped.status == 65, "\(stopped)")
        #expect(stopped.stderr.contains("speeches[17].type: 'No Such Type' matches no SpeechType"), "\(stopped)")
        #expect(stopped.stderr.contains("--on-error skip"))
        let report = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8)
        #expect(report.contains("\"position\":17"))
        #expect(try SyncStore.open(at: target, readOnly: true).liveRecordCounts()["Speech"] == 17)

        let skipped = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping,
                                                "--batch-size", "5", "--on-error", "skip", "--json"])
        #expect(skipped.status == 0, "\(skipped)")
        let document = try skipped.jsonObject()
        #expect(document["resumed"] as? Bool == true)
        let speech = (document["streams"] as? [[String: Any]])?[1]
        #expect(speech?["written"] as? Int == 39)
        #expect(speech?["rejected"] as? Int == 1)
        #expect(speech?["read"] as? Int == 40)
        let lines = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
    }

    @Test("bad sources and mappings get one clear message and their exit code")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 5)
        let target = directory.url.appendingPathComponent("t.store").path

        let noMapping = try StorekeepProcess.run(["migrate", source, "--to", target])
        #expect(noMapping.status == 64, "\(noMapping)")
        #expect(noMapping.stderr.contains("--mapping"))

        let text = try directory.write("just some notes\n", to: "notes.txt")
        let unknown = try StorekeepProcess.run(["migrate", text, "--to", target, "--json"])
        #expect(unknown.status == 65, "\(unknown)")
        #expect(unknown.stderr.contains("looks like a text file"))
        #expect(try unknown.jsonError()["kind"] as? String == "badInput")

        let missing = try StorekeepProcess.run(["migrate", directory.url.appendingPathComponent("none.plist").path, "--to", target])
        #expect(missing.status == 66, "\(missing)")

        let badMapping = try directory.write("""
            mapping: broken
            model: \(ModelFiles.speechTimer)
            entities:
              - entity: SpeechType
                from: speechTypes
                attributes:
                  colour: name
            """, to: "broken.yaml")
        let mappingError = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", badMapping])
        #expect(mappingError.status == 65, "\(mappingError)")
        #expect(mappingError.stderr.contains("broken.yaml:7"), "\(mappingError)")
        #expect(mappingError.stderr.contains("no attribute named 'colour'"))

        let typo = try directory.write("mapping: x\nmodel: \(ModelFiles.speechTimer)\nentitys: []\n", to: "typo.yaml")
        let typoError = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", typo])
        #expect(typoError.status == 65, "\(typoError)")
        #expect(typoError.stderr.contains("typo.yaml:3: unknown key 'entitys'"), "\(typoError)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was created for a refused run")

        let otherData = directory.url.appendingPathComponent("busy.store").path
        #expect(try StorekeepProcess.run(["init", otherData, "--model", ModelFiles.speechTimer, "--content-name", "X"]).status == 0)
        try SyncStore.open(at: otherData).save(author: "user") { try $0.insert("Settings", values: ["theme": .string("dark")]) }
        let busy = try StorekeepProcess.run(["migrate", source, "--to", otherData, "--mapping", SpeechTimerData.mapping])
        #expect(busy.status == 73, "\(busy)")
        #expect(busy.stderr.contains("already holds data"))
    }

    @Test("the malformed corpus property list is refused with its line", .enabled(if: ModelFiles.corpusIsPresent, "the shared corpus is absent"))
    func malformedCorpusPlist() throws {
        let corrupt = ModelFiles.corpusModels.deletingLastPathComponent().appendingPathComponent("plists/malformed-iphoto-History-Changes.plist").path
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("t.store").path
        let result = try StorekeepProcess.run(["migrate", corrupt, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("malformed-iphoto-History-Changes.plist:2786"), "\(result)")
        let inspect = try StorekeepProcess.run(["inspect", corrupt, "--json"])
        #expect(inspect.status == 65, "\(inspect)")
        #expect(inspect.stderr.contains(":2786"))
    }

    @Test("a file damaged where the mapping does not read is refused whole: a new target is removed, an existing one is left as it was")
    func damagedOutsideTheMapping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Many speeches and recordings, so that batches and blob files are written before the whole-file
        // check ends; then a root key no mapping reads whose string gets a marker no plist has (0x7E).
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 20_000, recordingEvery: 3)
        try damage(source, format: "FMT_BINARY", setting: "d['zzzUnmapped'] = 'DAMAGE-MARKER!'",
                   encoded: Array("\u{5e}DAMAGE-MARKER!".utf8), as: Array("\u{7e}DAMAGE-MARKER!".utf8))
        let target = directory.url.appendingPathComponent("t.store").path
        try expectRefusedLeavingOnlyTheSource(migrating: source, to: target, batchSize: 500, naming: "data.plist", "unknown marker 0x7E")

        // Into a target that exists, the file is checked before anything is written.
        let clean = try SpeechTimerData.write(in: directory, name: "clean.plist", speeches: 20)
        let migrated = try StorekeepProcess.run(["migrate", clean, "--to", target, "--mapping", SpeechTimerData.mapping, "--json"])
        #expect(migrated.status == 0, "\(migrated)")
        let before = try StorekeepProcess.run(["digest", target, "--json"]).jsonObject()["digest"] as? String
        let modified = try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date
        let again = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr.contains("unknown marker 0x7E"), "\(again)")
        #expect(FileManager.default.fileExists(atPath: target), "an existing target is never removed")
        #expect(try StorekeepProcess.run(["digest", target, "--json"]).jsonObject()["digest"] as? String == before)
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date == modified)
    }

    @Test("damage inside a speech, in a key the mapping reads or one it skips, is refused and removes the new target",
          arguments: [("xml", "notes"), ("xml", "zzUnmapped"), ("binary", "notes"), ("binary", "zzUnmapped")])
    func damagedInsideTheMappedArray(format: String, key: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The whole-file check beside the load leaves the speeches to the load (an XML file's leaves,
        // a binary file's elements): the load must find this damage in the last speech after its
        // batches have committed.
        let name = format == "xml" ? "data.xml" : "data.plist"
        let source = try SpeechTimerData.write(in: directory, name: name, speeches: 5_000, format: format, recordingEvery: 3)
        let target = directory.url.appendingPathComponent("t.store").path
        if format == "xml" {
            try damage(source, format: "FMT_XML", setting: "d['speeches'][-1]['\(key)'] = 'DAMAGE-MARKER'",
                       encoded: Array("<string>DAMAGE-MARKER</string>".utf8), as: Array("<integer>DAMAGE-MARKER</integer>".utf8))
            try expectRefusedLeavingOnlyTheSource(migrating: source, to: target, batchSize: 200, naming: "data.xml:", "<integer> holds 'DAMAGE-MARKER'")
        } else {
            // The 14-character ASCII string's marker (0x5E) becomes one no plist has (0x7E).
            try damage(source, format: "FMT_BINARY", setting: "d['speeches'][-1]['\(key)'] = 'DAMAGE-MARKER!'",
                       encoded: Array("\u{5e}DAMAGE-MARKER!".utf8), as: Array("\u{7e}DAMAGE-MARKER!".utf8))
            try expectRefusedLeavingOnlyTheSource(migrating: source, to: target, batchSize: 200, naming: "data.plist", "unknown marker 0x7E")
        }
    }

    /// Rewrites the data file at `path` with plistlib (`format`, a `plistlib` constant) after the
    /// Python statement `setting` changed the loaded dictionary `d`, then replaces in the written
    /// bytes the one place that holds `encoded` with `damaged`.
    private func damage(_ path: String, format: String, setting: String, encoded: [UInt8], as damaged: [UInt8]) throws {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        try SpeechTimerData.python(["-c", """
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb'))
            \(setting)
            raw = plistlib.dumps(d, fmt=plistlib.\(format))
            encoded, damaged = bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
            assert raw.count(encoded) == 1
            open(sys.argv[1], 'wb').write(raw.replace(encoded, damaged))
            """, path, hex(encoded), hex(damaged)])
    }

    /// Migrates `source` into the new `target` and expects exit 65 with `words` in the message, and
    /// nothing but the source left in its folder.
    private func expectRefusedLeavingOnlyTheSource(migrating source: String, to target: String, batchSize: Int, naming words: String...) throws {
        let refused = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--batch-size", String(batchSize)])
        #expect(refused.status == 65, "\(refused)")
        for word in words { #expect(refused.stderr.contains(word), "\(refused)") }
        let folder = URL(fileURLWithPath: source).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [URL(fileURLWithPath: source).lastPathComponent],
                "the new target, its journal, blob folder and lock are gone")
    }

    @Test("inspect shows a data file's key paths with types, counts and presence")
    func inspectPropertyList() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.xml", speeches: 30, format: "xml", recordingEvery: 2)
        let result = try StorekeepProcess.run(["inspect", source, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["kind"] as? String == "propertyList")
        #expect(document["format"] as? String == "xml")
        let root = try #require(document["root"] as? [String: Any])
        #expect(root["type"] as? String == "dictionary")
        let children = try #require(root["children"] as? [String: Any])
        let speeches = try #require(children["speeches"] as? [String: Any])
        #expect(speeches["type"] as? String == "array")
        #expect(speeches["count"] as? Int == 30)
        let element = try #require(speeches["element"] as? [String: Any])
        let keys = try #require(element["children"] as? [String: Any])
        #expect((keys["recording"] as? [String: Any])?["present"] as? Int == 15)
        #expect((keys["notes"] as? [String: Any])?["present"] as? Int == 10)
        #expect((keys["title"] as? [String: Any])?["present"] as? Int == 30)
        #expect(((keys["date"] as? [String: Any])?["types"] as? [String: Int]) == ["date": 30])
        let text = try StorekeepProcess.run(["inspect", source])
        #expect(text.stdout.contains("speeches[].recording"))
    }

    @Test("a target locked by a running process exits 75; once that process is gone, the lock is taken over")
    func lockedTarget() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 5)
        let target = directory.url.appendingPathComponent("t.store").path
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        let lock = "{\"command\":\"other\",\"host\":\"\(ProcessInfo.processInfo.hostName)\",\"pid\":\(sleeper.processIdentifier),\"started\":\"2026-11-22T00:00:00Z\"}"
        try Data(lock.utf8).write(to: URL(fileURLWithPath: target + ".lock"))
        let busy = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(busy.status == 75, "\(busy)")
        #expect(busy.stderr.contains("locked by other"))
        #expect(!FileManager.default.fileExists(atPath: target))
        sleeper.terminate()
        sleeper.waitUntilExit()
        let taken = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(taken.status == 0, "\(taken)")
        #expect(taken.stdout.contains("took over the lock left by other"))
        #expect(!FileManager.default.fileExists(atPath: target + ".lock"), "the lock is released at the end")
    }
}

/// Global IDs taken from the data file's `id` keys: canonical UUID text, and unique.
@Suite("storekeep migrate: global IDs from the source")
struct MigrateGlobalIDTests {
    @Test("a lowercase UUID id becomes its canonical uppercase text; other ids are kept as they are")
    func canonicalIDs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 20)
        try SpeechTimerData.editSpeeches(of: source, """
            s[1]['id'] = 'abcdef01-2345-6789-abcd-ef0123456789'
            s[2]['id'] = 'legacy-speech-2'
            """)
        let target = directory.url.appendingPathComponent("t.store").path
        let result = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(result.status == 0, "\(result)")
        let store = try SyncStore.open(at: target, readOnly: true)
        #expect(try store.record(GlobalID("ABCDEF01-2345-6789-ABCD-EF0123456789")) != nil)
        #expect(try store.record(GlobalID("legacy-speech-2")) != nil)
        #expect(try store.globalIDs(of: "Speech").count == 20)
    }

    @Test("two speeches with the same id stop the run with exit 65 naming the id, and a rerun says the same")
    func duplicateIDs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 30)
        try SpeechTimerData.editSpeeches(of: source, "s[3]['id'] = s[27]['id'] = 'SPEECH-TWICE'")
        let target = directory.url.appendingPathComponent("t.store").path
        for _ in 0..<2 {
            let result = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--batch-size", "10"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("more than one record has the same global ID"), "\(result.stderr)")
            #expect(result.stderr.contains("SPEECH-TWICE (2 records of Speech)"), "\(result.stderr)")
            #expect(result.stderr.contains(source), "the message names the source")
        }
        let store = try SyncStore.open(at: target, readOnly: true)
        #expect(try store.migrations().last?.success == nil, "the run is recorded as unfinished")
    }
}
