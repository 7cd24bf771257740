import Foundation
import Testing

/// Bad container files that pass the frame checks (their checksums match): logs whose header
/// names another content name, model hash or peer; logs whose changes are malformed; damaged
/// manifests and baselines; a transaction waiting for one the container does not hold. Each is a
/// finding naming the file, with its exit status, and the importing store holds nothing of it.
@Suite("sync bad logs")
struct SyncBadLogTests {
    /// A with one published log (a type and a speech), C with one, B not synced yet.
    private func peers() throws -> SyncPeers {
        let peers = try SyncPeers(["A", "B", "C"])
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.apply("C", [SpeechLines.type("T3", "Keynote")]).status == 0)
        #expect(try peers.sync("C").status == 0)
        return peers
    }

    private func findings(_ result: ProcessResult) throws -> [[String: Any]] {
        try result.jsonObject()["findings"] as? [[String: Any]] ?? []
    }

    /// B's sync: the status, the finding with `code` naming `file`, nothing of A imported, C's log imported.
    private func expectRefused(_ peers: SyncPeers, code: String, file: URL, status: Int32 = 65, context: String) throws {
        let before = try peers.digest("B")
        let result = try peers.sync("B", ["--json"])
        #expect(result.status == status, "\(context): \(result)")
        let finding = try findings(result).first { $0["code"] as? String == code }
        #expect(finding != nil, "\(context): \(result.stdout)")
        #expect((finding?["file"] as? String)?.hasSuffix(file.lastPathComponent) == true, "\(context): \(String(describing: finding))")
        let watermarks = try result.jsonObject()["watermarks"] as? [String: Any] ?? [:]
        #expect((watermarks["A"] as? Int ?? 0) == 0, "\(context): nothing of A's unusable log is imported")
        #expect(watermarks["C"] as? Int == 1, "\(context): the other peers' good logs are still imported")
        // Only C's type arrived: the store is what it was plus C's log.
        let entities = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((entities?["SpeechType"] as? [String: Any])?["records"] as? Int == 1, "\(context)")
        #expect((entities?["Speech"] as? [String: Any])?["records"] as? Int == 0, "\(context)")
        #expect(try peers.digest("B") != before)
    }

    @Test("a log whose header names another content name, model hash or peer is log.foreign",
          arguments: ["contentName", "modelHash", "peer"])
    func foreignHeader(field: String) throws {
        let peers = try peers()
        defer { peers.directory.remove() }
        let log = try #require(try peers.logs("A").first)
        try FramedFileSurgery.rewrite(log) { header, _ in
            switch field {
            case "contentName": header["contentName"] = "SomethingElse"
            case "modelHash": header["modelHash"] = String(repeating: "ab", count: 32)
            default: header["peer"] = "C"
            }
        }
        try expectRefused(peers, code: "log.foreign", file: log, context: field)
        let result = try peers.sync("B", ["--json"])
        let message = try findings(result).first { $0["code"] as? String == "log.foreign" }?["message"] as? String ?? ""
        let expected = ["contentName": "content name SomethingElse", "modelHash": "model hash abab", "peer": "peer C"][field] ?? "?"
        #expect(message.contains(expected), "\(message)")
    }

    @Test("a log with a valid checksum and malformed changes is log.damaged, never a crash; the other peers' logs still arrive")
    func malformedChanges() throws {
        let template = try peers()
        defer { template.directory.remove() }
        let original = try Data(contentsOf: try #require(try template.logs("A").first))
        var random = SeededRandom(seed: 2122)
        var damagedCount = 0
        for attempt in 0..<40 {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            let log = try #require(try peers.logs("A").first)
            try original.write(to: log)
            // One or two bytes of the body changed, past the transaction's header (so the changes are hit).
            try FramedFileSurgery.rewrite(log) { _, body in
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let offset = Int.random(in: min(30, body.count - 1)..<body.count, using: &random)
                    body[offset] = UInt8.random(in: 0...255, using: &random)
                }
            }
            let before = try peers.digest("B")
            let result = try peers.sync("B", ["--json"])
            #expect(result.status == 0 || result.status == 65, "attempt \(attempt): \(result)")
            #expect(!result.stderr.contains("bug in storekeep"), "attempt \(attempt): \(result.stderr)")
            guard result.status == 65 else { continue }
            damagedCount += 1
            let finding = try findings(result).first { $0["code"] as? String == "log.damaged" }
            #expect((finding?["file"] as? String)?.hasSuffix(log.lastPathComponent) == true, "attempt \(attempt): \(result.stdout)")
            let watermarks = try result.jsonObject()["watermarks"] as? [String: Any] ?? [:]
            #expect((watermarks["A"] as? Int ?? 0) == 0, "attempt \(attempt): nothing of the log is applied")
            #expect(watermarks["C"] as? Int == 1, "attempt \(attempt): C's log still arrives")
            #expect(try peers.digest("B") != before)
            let entities = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
            #expect((entities?["Speech"] as? [String: Any])?["records"] as? Int == 0, "attempt \(attempt)")
        }
        #expect(damagedCount >= 5, "only \(damagedCount) of 40 mutations made a log that cannot be used")
    }

    @Test("a change whose value tag is unknown stops its log before anything of it is applied")
    func unknownValueTag() throws {
        let peers = try peers()
        defer { peers.directory.remove() }
        let log = try #require(try peers.logs("A").first)
        // The speech's title "one" is stored as tag 3 (string), length 3, "one": make the tag 23.
        try FramedFileSurgery.rewrite(log) { _, body in
            let marker: [UInt8] = [3, 3] + Array("one".utf8)
            guard let index = (0...(body.count - marker.count)).first(where: { Array(body[$0..<($0 + marker.count)]) == marker }) else { return }
            body[index] = 23
        }
        try expectRefused(peers, code: "log.damaged", file: log, context: "tag 23")
        let result = try peers.sync("B", ["--json"])
        let message = try findings(result).first { $0["code"] as? String == "log.damaged" }?["message"] as? String ?? ""
        #expect(message.contains("unknown value tag 23"), "\(message)")
    }

    @Test("a damaged manifest is a warning naming it; the peer's logs are still imported")
    func damagedManifest() throws {
        let peers = try peers()
        defer { peers.directory.remove() }
        let manifest = try peers.logFolder("A").deletingLastPathComponent().appendingPathComponent("manifest.json")
        try Data("{not json".utf8).write(to: manifest)
        let result = try peers.sync("B", ["--json"])
        #expect(result.status == 0, "\(result)")
        let finding = try findings(result).first { $0["code"] as? String == "manifest.damaged" }
        #expect((finding?["file"] as? String)?.hasSuffix("A/manifest.json") == true, "\(result.stdout)")
        #expect(finding?["severity"] as? String == "warning")
        // A manifest says what a peer imported (for archiving); the logs stand on their own.
        #expect((try result.jsonObject()["watermarks"] as? [String: Any])?["A"] as? Int == 1)
        // An archive from B keeps everything of A's while A's manifest cannot be read.
        let archive = try StorekeepProcess.run(["archive", peers.store("B"), "--container", peers.container, "--json"])
        #expect(archive.status == 0, "\(archive)")
        #expect(try archive.jsonObject()["archivedLogs"] as? Int == 0, "\(archive.stdout)")
    }

    @Test("a transaction that depends on one the container does not hold waits: peer.waiting, nothing of it applied")
    func waitingTransaction() throws {
        let peers = try peers()
        defer { peers.directory.remove() }
        // C imports A's log, then makes a speech of A's type: its transaction depends on A's 1.
        #expect(try peers.sync("C").status == 0)
        #expect(try peers.apply("C", [SpeechLines.speech("S3", title: "on C", type: "T1")]).status == 0)
        #expect(try peers.sync("C").status == 0)
        // A's log leaves the container (a lost share), before B saw it.
        let aLog = try #require(try peers.logs("A").first)
        try FileManager.default.removeItem(at: aLog)
        let before = try peers.digest("B")
        let result = try peers.sync("B", ["--json"])
        #expect(result.status == 65, "\(result)")
        let finding = try findings(result).first { $0["code"] as? String == "peer.waiting" }
        #expect(finding?["peer"] as? String == "C", "\(result.stdout)")
        #expect((finding?["message"] as? String)?.contains("A's 1") == true, "\(String(describing: finding))")
        let watermarks = try result.jsonObject()["watermarks"] as? [String: Any] ?? [:]
        #expect(watermarks["C"] as? Int == 1, "C's first transaction (no dependency) is in, its second waits")
        let entities = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((entities?["Speech"] as? [String: Any])?["records"] as? Int == 0)
        #expect(try peers.digest("B") != before)
        // A publishes again what is missing; B then gets everything.
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
    }

    @Test("a damaged baseline, or one whose content cannot be applied, is baseline.damaged; the new peer stays empty",
          arguments: ["checksum", "content"])
    func damagedBaseline(kind: String) throws {
        let peers = try peers()
        defer { peers.directory.remove() }
        _ = try peers.syncUntilQuiet()
        let archive = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        #expect(archive.status == 0, "\(archive)")
        let baselinePath = try #require(try archive.jsonObject()["baseline"] as? String)
        let baseline = URL(fileURLWithPath: baselinePath)
        if kind == "checksum" {
            var bytes = try Data(contentsOf: baseline)
            bytes[bytes.count / 2] ^= 0x20
            try bytes.write(to: baseline)
        } else {
            // A snapshot baseline whose database is not a SQLite file any more: the checksum is right.
            try FramedFileSurgery.rewrite(baseline) { header, body in
                #expect(header["format"] as? Int == 2, "archive writes snapshot baselines")
                let magic = Array("SQLite format 3\0".utf8)
                #expect(Array(body.prefix(magic.count)) == magic)
                body.replaceSubrange(0..<magic.count, with: Array("not a database!\0".utf8))
            }
        }
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        let empty = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
        let result = try StorekeepProcess.run(["sync", fresh, "--container", peers.container, "--json"])
        #expect(result.status == 65, "\(result)")
        #expect(!result.stderr.contains("bug in storekeep"))
        let finding = try findings(result).first { $0["code"] as? String == "baseline.damaged" }
        #expect((finding?["file"] as? String)?.hasSuffix(baseline.lastPathComponent) == true, "\(result.stdout)")
        #expect(try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String == empty, "nothing of the baseline is applied")
    }
}
