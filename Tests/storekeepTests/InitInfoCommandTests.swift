import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// End-to-end tests of `storekeep init` and `storekeep info` through the built binary.
@Suite("storekeep init and info")
struct InitInfoCommandTests {
    @Test("init creates a store for the current version and prints its info")
    func initCreates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        let result = try StorekeepProcess.run([
            "init", store, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "mac-1", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["formatVersion"] as? Int == 4)
        #expect(document["contentName"] as? String == "SpeechTimer")
        #expect(document["peerID"] as? String == "mac-1")
        let model = try #require(document["model"] as? [String: Any])
        #expect(model["name"] as? String == "SpeechTimer")
        #expect(model["version"] as? String == "SpeechTimer 2")
        let expectedHash = try ModelLoader.load(path: ModelFiles.speechTimer, version: nil).versionHash
        #expect(model["hash"] as? String == expectedHash)
        #expect(document["entities"] as? [String: Int] == ["Speech": 0, "SpeechType": 0, "Settings": 0])
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test("init with an older model version and a random peer ID")
    func initOlderVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        let result = try StorekeepProcess.run([
            "init", store, "--model", ModelFiles.speechTimer, "--model-version", "SpeechTimer 1", "--content-name", "ST", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect((document["model"] as? [String: Any])?["version"] as? String == "SpeechTimer 1")
        #expect(UUID(uuidString: document["peerID"] as? String ?? "") != nil)
    }

    @Test("init refuses an existing store (73), a missing folder (73), a bad content name (64) and a missing model (66)")
    func initRefusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        let arguments = ["--model", ModelFiles.speechTimer, "--content-name", "ST"]
        #expect(try StorekeepProcess.run(["init", store] + arguments).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let existing = try StorekeepProcess.run(["init", store] + arguments + ["--json"])
        #expect(existing.status == 73, "\(existing)")
        #expect(try existing.jsonError()["kind"] as? String == "cannotCreateOutput")
        #expect(existing.stderr.contains(store))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)

        let noFolder = try StorekeepProcess.run(["init", directory.url.appendingPathComponent("no/s.store").path] + arguments)
        #expect(noFolder.status == 73, "\(noFolder)")

        let badName = try StorekeepProcess.run(["init", directory.url.appendingPathComponent("b.store").path,
                                                "--model", ModelFiles.speechTimer, "--content-name", "bad name"])
        #expect(badName.status == 64, "\(badName)")
        #expect(badName.stderr.contains("content name"))

        let noModel = try StorekeepProcess.run(["init", directory.url.appendingPathComponent("c.store").path,
                                                "--model", "/nonexistent/M.xcdatamodeld", "--content-name", "ST"])
        #expect(noModel.status == 66, "\(noModel)")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("c.store").path))
    }

    @Test("info counts live records under their exact entity and reports the history")
    func infoCountsExactEntities() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ModelFiles.writeLibraryModel(in: directory)
        let store = directory.url.appendingPathComponent("library.store").path
        let created = try StorekeepProcess.run(["init", store, "--model", model, "--content-name", "Library"])
        #expect(created.status == 0, "\(created)")

        let library = try SyncStore.open(at: store)
        try library.save(author: "test") { tx in
            let shelf = try tx.insert("Shelf", values: ["label": .string("A")])
            let books = try (0..<3).map { try tx.insert("Book", values: ["title": .string("b\($0)")]) }
            let film = try tx.insert("Film", values: ["title": .string("f")])
            try tx.setToMany("items", of: shelf, to: books + [film])
        }
        let firstBook = try #require(try library.globalIDs(of: "Book").first)
        try library.save(author: "test") { try $0.delete(firstBook) }

        let result = try StorekeepProcess.run(["info", store, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["entities"] as? [String: Int] == ["Item": 0, "Book": 2, "Film": 1, "Shelf": 1])
        let history = try #require(document["history"] as? [String: Any])
        #expect(history["transactions"] as? Int == 2)
        #expect(history["changes"] as? Int == 7)
        #expect(document["contentName"] as? String == "Library")

        let text = try StorekeepProcess.run(["info", store])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Book"))
        #expect(text.stdout.contains("2 transactions, 7 changes"))
    }

    @Test("info on a missing store exits 66, on a property list or a foreign SQLite file 65")
    func infoRefusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = try StorekeepProcess.run(["info", directory.url.appendingPathComponent("none.store").path, "--json"])
        #expect(missing.status == 66, "\(missing)")
        #expect(try missing.jsonError()["kind"] as? String == "missingInput")

        let plist = try directory.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n", to: "data.plist")
        let notSQLite = try StorekeepProcess.run(["info", plist])
        #expect(notSQLite.status == 65, "\(notSQLite)")
        #expect(notSQLite.stderr.contains("XML property list"))
        #expect(notSQLite.stderr.contains(plist))
    }

    @Test("info never writes to the store")
    func infoIsReadOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        #expect(try StorekeepProcess.run(["init", store, "--model", ModelFiles.speechTimer, "--content-name", "ST"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(try StorekeepProcess.run(["info", store]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
