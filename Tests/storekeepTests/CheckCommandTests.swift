import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// End-to-end tests of `storekeep check` through the built binary: exit statuses, the JSON
/// document, the human table, `--jobs`, `--model` and the read-only guarantee.
@Suite("storekeep check")
struct CheckCommandTests {
    /// A clean SpeechTimer store: one built-in speech type, one speech of that type, one Settings record.
    private func cleanStore(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        let model = try ModelLoader.load(path: ModelFiles.speechTimer, version: nil)
        let store = try SyncStore.create(at: path, model: model, contentName: "SpeechTimer")
        try store.save(author: "app") { tx in
            let type = try tx.insert("SpeechType", id: GlobalID("T-1"), values: [
                "name": .string("Toast"), "greenSeconds": .double(60), "yellowSeconds": .double(90), "redSeconds": .double(120),
            ], seed: SeedMark(set: "speechtimer.builtin-types", version: 1))
            let speech = try tx.insert("Speech", values: [
                "title": .string("Welcome"), "speakerName": .string("Ann"), "date": .date(Date(timeIntervalSince1970: 0)),
                "duration": .double(75),
            ])
            try tx.setToOne("type", of: speech, to: type)
            try tx.insert("Settings")
        }
        return path
    }

    /// Adds a second Settings record: a violation (`singleton.duplicate`).
    private func addSecondSettings(to path: String) throws {
        try SyncStore.open(at: path).save(author: "app") { try $0.insert("Settings") }
    }

    /// Leaves a lock file of a process that has exited: a warning (`lock.stale`).
    private func leaveStaleLock(for path: String) throws {
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let owner = StoreLock.Owner(command: "migrate", host: ProcessInfo.processInfo.hostName,
                                    pid: finished.processIdentifier, started: "2026-11-21T02:00:00Z")
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: StoreLock.lockPath(for: path)))
    }

    private func stores(_ document: [String: Any]) throws -> [[String: Any]] {
        try #require(document["stores"] as? [[String: Any]])
    }

    private func summary(_ document: [String: Any]) throws -> [String: Any] {
        try #require(document["summary"] as? [String: Any])
    }

    @Test("a clean store exits 0 with an empty findings list and a summary")
    func cleanStoreIsOK() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try cleanStore("a.store", in: directory)
        let result = try StorekeepProcess.run(["check", path, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        let store = try #require(try stores(document).first)
        #expect(store["path"] as? String == path)
        #expect(store["status"] as? String == "ok")
        #expect((store["findings"] as? [Any])?.isEmpty == true)
        let summary = try summary(document)
        #expect(summary["exitCode"] as? Int == 0)
        #expect(summary["status"] as? String == "ok")
        #expect(summary["depth"] as? String == "quick")
        #expect((summary["statuses"] as? [String: Int])?["ok"] == 1)

        let text = try StorekeepProcess.run(["check", path, "--full"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("\(path): ok"))
        #expect(text.stdout.contains("1 store checked (full)"))
    }

    @Test("warnings only exit 1; a violation exits 2 and its finding carries code, severity, entity, IDs, message and hint")
    func warningsAndViolations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try cleanStore("a.store", in: directory)
        try leaveStaleLock(for: path)
        let warned = try StorekeepProcess.run(["check", path, "--json"])
        #expect(warned.status == 1, "\(warned)")
        let warning = try #require(((try stores(warned.jsonObject()).first)?["findings"] as? [[String: Any]])?.first)
        #expect(warning["code"] as? String == "lock.stale")
        #expect(warning["severity"] as? String == "warning")
        #expect(warning["file"] as? String == StoreLock.lockPath(for: path))

        try addSecondSettings(to: path)
        let violated = try StorekeepProcess.run(["check", path, "--json"])
        #expect(violated.status == 2, "\(violated)")
        let findings = try #require((try stores(violated.jsonObject()).first)?["findings"] as? [[String: Any]])
        let duplicate = try #require(findings.first { $0["code"] as? String == "singleton.duplicate" })
        #expect(duplicate["severity"] as? String == "violation")
        #expect(duplicate["entity"] as? String == "Settings")
        #expect((duplicate["globalIDs"] as? [String])?.count == 2)
        #expect((duplicate["message"] as? String)?.isEmpty == false)
        #expect((duplicate["hint"] as? String)?.contains("repair") == true)
        #expect(try summary(violated.jsonObject())["exitCode"] as? Int == 2)

        let text = try StorekeepProcess.run(["check", path])
        #expect(text.status == 2)
        #expect(text.stdout.contains("singleton.duplicate"))
        #expect(text.stdout.contains("lock.stale"))
        #expect(text.stdout.contains("violations (1 violation, 1 warning)"), "\(text.stdout)")
    }

    @Test("a store that cannot be checked makes the run exit 3, and the other stores are still checked, in order, with --jobs")
    func couldNotCheck() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clean = try cleanStore("clean.store", in: directory)
        let broken = try cleanStore("broken.store", in: directory)
        try addSecondSettings(to: broken)
        let missing = directory.url.appendingPathComponent("missing.store").path
        let notAStore = directory.url.appendingPathComponent("notes.txt").path
        try Data("shopping list\n".utf8).write(to: URL(fileURLWithPath: notAStore))

        let result = try StorekeepProcess.run(["check", clean, missing, broken, notAStore, "--jobs", "3", "--json"])
        #expect(result.status == 3, "\(result)")
        let document = try result.jsonObject()
        let reports = try stores(document)
        #expect(reports.compactMap { $0["path"] as? String } == [clean, missing, broken, notAStore])
        #expect(reports.compactMap { $0["status"] as? String } == ["ok", "failed", "violations", "failed"])
        let missingError = try #require(reports[1]["error"] as? [String: Any])
        #expect(missingError["kind"] as? String == "missingInput")
        #expect((missingError["message"] as? String)?.contains(missing) == true)
        #expect((reports[3]["error"] as? [String: Any])?["kind"] as? String == "badInput")
        let statuses = try #require(try summary(document)["statuses"] as? [String: Int])
        #expect(statuses == ["ok": 1, "warnings": 0, "violations": 1, "failed": 2])

        let text = try StorekeepProcess.run(["check", clean, missing])
        #expect(text.status == 3)
        #expect(text.stdout.contains("\(missing): could not check"))
    }

    @Test("--model must match the store's model: another model is a violation, the right one passes")
    func modelMustMatch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try cleanStore("a.store", in: directory)
        let matching = try StorekeepProcess.run(["check", path, "--model", ModelFiles.speechTimer])
        #expect(matching.status == 0, "\(matching)")
        let other = try ModelFiles.writeLibraryModel(in: directory)
        let mismatched = try StorekeepProcess.run(["check", path, "--model", other, "--json"])
        #expect(mismatched.status == 2, "\(mismatched)")
        let findings = try #require((try stores(mismatched.jsonObject()).first)?["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["code"] as? String == "metadata.modelMismatch" })
        let unreadable = try StorekeepProcess.run(["check", path, "--model", directory.url.appendingPathComponent("none.xcdatamodeld").path])
        #expect(unreadable.status == 3, "\(unreadable)")
    }

    @Test("check writes nothing: the store's files are byte-identical afterwards and no -wal or -shm appears")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try cleanStore("a.store", in: directory)
        try addSecondSettings(to: path)
        let before = try snapshot(of: directory.url)
        #expect(try StorekeepProcess.run(["check", path, "--full"]).status == 2)
        #expect(try snapshot(of: directory.url) == before)
    }

    @Test("contradictory or impossible options are usage errors (64)")
    func usage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try cleanStore("a.store", in: directory)
        for arguments in [["check"], ["check", path, "--quick", "--full"], ["check", path, "--jobs", "0"],
                          ["check", path, "--model-version", "SpeechTimer 2"]] {
            let result = try StorekeepProcess.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }

    /// Every file of `folder` with its content and modification time.
    private func snapshot(of folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        for case let url as URL in walker {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let content = (try? Data(contentsOf: url)).map { $0.base64EncodedString() } ?? "dir"
            files[url.lastPathComponent] = "\(content):\(attributes[.modificationDate].map { "\($0)" } ?? "")"
        }
        return files
    }
}
