import Foundation
import ObjectModel
import SyncStore
import Testing

/// End-to-end tests of `storekeep digest` through the built binary.
@Suite("storekeep digest")
struct DigestCommandTests {
    @Test("equal content on two peers gives equal digests; a change gives another")
    func digestsCompare() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var paths: [String] = []
        for (index, peer) in ["mac", "phone"].enumerated() {
            let path = directory.url.appendingPathComponent("s\(index).store").path
            let created = try StorekeepProcess.run(["init", path, "--model", ModelFiles.speechTimer, "--content-name", "ST", "--peer-id", peer])
            #expect(created.status == 0, "\(created)")
            let store = try SyncStore.open(at: path)
            try store.save(author: "test") { tx in
                let type = try tx.insert("SpeechType", id: GlobalID("type-1"), values: ["name": .string("Toast")])
                let speech = try tx.insert("Speech", id: GlobalID("speech-1"), values: ["title": .string("Hi")])
                try tx.setToOne("type", of: speech, to: type)
            }
            paths.append(path)
        }
        let first = try StorekeepProcess.run(["digest", paths[0], "--json"])
        let second = try StorekeepProcess.run(["digest", paths[1], "--json"])
        #expect(first.status == 0, "\(first)")
        let a = try first.jsonObject()
        let b = try second.jsonObject()
        #expect((a["digest"] as? String)?.count == 64)
        #expect(a["digest"] as? String == b["digest"] as? String)
        #expect(a["records"] as? Int == 2)
        #expect(a["links"] as? Int == 1)

        try SyncStore.open(at: paths[1]).save(author: "test") { try $0.update(GlobalID("speech-1"), values: ["title": .string("Hello")]) }
        let changed = try StorekeepProcess.run(["digest", paths[1], "--json"]).jsonObject()
        #expect(changed["digest"] as? String != a["digest"] as? String)
        let speech = (changed["entities"] as? [String: Any])?["Speech"] as? [String: Any]
        #expect(speech?["records"] as? Int == 1)

        let text = try StorekeepProcess.run(["digest", paths[0]])
        #expect(text.stdout.hasPrefix(a["digest"] as? String ?? "?"))
    }

    @Test("a missing store exits 66")
    func missingStore() throws {
        let result = try StorekeepProcess.run(["digest", "/nonexistent/x.store"])
        #expect(result.status == 66, "\(result)")
    }
}
