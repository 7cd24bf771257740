import Foundation
import Testing

/// End-to-end tests of `storekeep model show` through the built binary.
@Suite("storekeep model show")
struct ModelShowCommandTests {
    @Test("--json describes the current Speech Timer version with facts and hashes")
    func speechTimerJSON() throws {
        let result = try StorekeepProcess.run(["model", "show", ModelFiles.speechTimer, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["name"] as? String == "SpeechTimer")
        #expect(document["version"] as? String == "SpeechTimer 2")
        #expect(document["versions"] as? [String] == ["SpeechTimer 1", "SpeechTimer 2"])
        #expect((document["hash"] as? String)?.count == 64)
        let entities = try #require(document["entities"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0["name"] as? String ?? "", $0) })
        #expect(Set(byName.keys) == ["Speech", "SpeechType", "Settings"])
        let typeFacts = try #require(byName["SpeechType"]?["facts"] as? [String: Any])
        #expect(typeFacts["seedKey"] as? [String] == ["name"])
        let settingsFacts = try #require(byName["Settings"]?["facts"] as? [String: Any])
        #expect(settingsFacts["singleton"] as? Bool == true)
        let speechAttributes = try #require(byName["Speech"]?["attributes"] as? [[String: Any]])
        let speakerName = try #require(speechAttributes.first { $0["name"] as? String == "speakerName" })
        #expect(speakerName["elementID"] as? String == "speaker")
        let recording = try #require(speechAttributes.first { $0["name"] as? String == "recording" })
        #expect(recording["externalStorage"] as? Bool == true)
        let relationships = try #require(byName["Speech"]?["relationships"] as? [[String: Any]])
        #expect(relationships.first?["destination"] as? String == "SpeechType")
        #expect(relationships.first?["inverse"] as? String == "speeches")
    }

    @Test("--version picks another version, whose hash differs")
    func otherVersion() throws {
        let first = try StorekeepProcess.run(["model", "show", ModelFiles.speechTimer, "--version", "SpeechTimer 1", "--json"]).jsonObject()
        let second = try StorekeepProcess.run(["model", "show", ModelFiles.speechTimer, "--json"]).jsonObject()
        #expect(first["version"] as? String == "SpeechTimer 1")
        #expect(first["isCurrent"] as? Bool == false)
        #expect(first["hash"] as? String != second["hash"] as? String)
    }

    @Test("an unknown version is a usage error listing the versions")
    func unknownVersion() throws {
        let result = try StorekeepProcess.run(["model", "show", ModelFiles.speechTimer, "--version", "SpeechTimer 9"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("SpeechTimer 1, SpeechTimer 2"))
    }

    @Test("text output shows every entity and property")
    func textOutput() throws {
        let result = try StorekeepProcess.run(["model", "show", ModelFiles.speechTimer])
        #expect(result.status == 0, "\(result)")
        for word in ["entity Speech", "entity SpeechType", "entity Settings", "singleton", "seed key: name", "speakerName", "→ SpeechType"] {
            #expect(result.stdout.contains(word), "missing \(word)")
        }
    }

    @Test("a malformed model file exits 65 naming the file and the line")
    func malformedModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="A">
                    <attribute name="x" attributeType="String">
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        let result = try StorekeepProcess.run(["model", "show", folder.path, "--json"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("Broken.xcdatamodel/contents:5"), "\(result)")
        let error = try result.jsonError()
        #expect(error["kind"] as? String == "badInput")
        #expect((error["message"] as? String)?.contains("contents:5") == true)
    }

    @Test("a missing model exits 66")
    func missingModel() throws {
        let result = try StorekeepProcess.run(["model", "show", "/nonexistent/Nothing.xcdatamodeld"])
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("/nonexistent/Nothing.xcdatamodeld"))
    }

    @Test("every corpus model is described by --json", .enabled(if: ModelFiles.corpusIsPresent, "the shared corpus (../shared/corpus) is absent"))
    func everyCorpusModel() throws {
        let bundles = ModelFiles.corpusBundles()
        #expect(bundles.count >= 14)
        for bundle in bundles {
            let result = try StorekeepProcess.run(["model", "show", bundle.path, "--json"])
            #expect(result.status == 0, "\(bundle.lastPathComponent): \(result)")
            let document = try result.jsonObject()
            let entities = document["entities"] as? [[String: Any]] ?? []
            #expect(!entities.isEmpty, "\(bundle.path) has entities")
            #expect((document["hash"] as? String)?.count == 64)
            let versions = document["versions"] as? [String] ?? []
            #expect(versions.contains(document["currentVersion"] as? String ?? "?"))
            for entity in entities {
                #expect((entity["hash"] as? String)?.count == 64, "\(bundle.lastPathComponent) \(entity["name"] ?? "?")")
            }
        }
    }
}
