import Foundation
import Testing

/// `storekeep sync` and `storekeep apply` through the real binary: convergence, bad logs, switching
/// sync off and on, and concurrent runs.
@Suite("sync command")
struct SyncCommandTests {
    @Test("two peers exchange their changes and end with the same digest")
    func twoPeersConverge() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "Hello", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.type("T2", "Keynote", green: 600)]).status == 0)
        let first = try peers.sync("A", ["--json"])
        #expect(first.status == 0, "\(first)")
        let document = try first.jsonObject()
        #expect(document["exportedTransactions"] as? Int == 1)
        #expect(document["exportedChanges"] as? Int == 2)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        // Concurrent edits of one property: both end with the same value.
        #expect(try peers.apply("A", [SpeechLines.retitle("S1", "from A")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.retitle("S1", "from B")]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
    }

    @Test("a bad line of a change file is named and nothing is saved")
    func applyRefusesABadLine() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        let before = try peers.digest("A")
        let result = try peers.apply("A", [SpeechLines.type("T1", "Toast"), #"{"op":"insert","entity":"SpeechType","values":{"name":"X","greenSeconds":"soon"}}"#])
        #expect(result.status == 65)
        #expect(result.stderr.contains(".jsonl:2:"), "\(result.stderr)")
        #expect(result.stderr.contains("greenSeconds"))
        #expect(try peers.digest("A") == before)
        let typo = try peers.apply("A", [#"{"op":"insert","entity":"SpeechType","valeus":{"name":"X"}}"#])
        #expect(typo.status == 65 && typo.stderr.contains("valeus"), "\(typo)")
    }

    @Test("switched off, a store neither exports nor imports; switched on, the edits arrive both ways")
    func disableAndEnable() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast")]).status == 0)
        _ = try peers.syncUntilQuiet()
        #expect(try peers.sync("A", ["--disable"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("SA", title: "offline A", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("SB", title: "offline B", type: "T1")]).status == 0)
        let off = try peers.sync("A", ["--json"])
        #expect(off.status == 0)
        let document = try off.jsonObject()
        #expect(document["syncEnabled"] as? Bool == false)
        #expect(document["exportedTransactions"] as? Int == 0)
        #expect(try peers.sync("B").status == 0)
        #expect(try peers.digest("A") != peers.digest("B"))
        #expect(try peers.sync("A", ["--enable"]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        let info = try StorekeepProcess.run(["digest", peers.store("B"), "--json"])
        let entities = try info.jsonObject()["entities"] as? [String: Any]
        #expect((entities?["Speech"] as? [String: Any])?["records"] as? Int == 2)
    }

    /// Each bad-log case: the finding, exit 65, and the importing store unchanged.
    @Test("damaged, truncated, foreign and missing logs are findings; the store stays as it was",
          arguments: ["log.damaged", "truncated", "log.foreign", "log.missing"])
    func badLogs(case name: String) throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.apply("A", [SpeechLines.type("T2", "Panel")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        let logs = try peers.logs("A")
        #expect(logs.count == 2)
        let expectedCode: String
        switch name {
        case "log.damaged":
            var bytes = try Data(contentsOf: logs[0])
            bytes[bytes.count / 2] ^= 0x40
            try bytes.write(to: logs[0])
            expectedCode = "log.damaged"
        case "truncated":
            let bytes = try Data(contentsOf: logs[0])
            try bytes.prefix(bytes.count - 10).write(to: logs[0])
            expectedCode = "log.damaged"
        case "log.foreign":
            // A's second log copied over its first: its header names another range.
            try FileManager.default.removeItem(at: logs[0])
            try FileManager.default.copyItem(at: logs[1], to: logs[0])
            expectedCode = "log.foreign"
        default:
            try FileManager.default.removeItem(at: logs[0])
            expectedCode = "log.missing"
        }
        let before = try peers.digest("B")
        let result = try peers.sync("B", ["--json"])
        #expect(result.status == 65, "\(result)")
        let document = try result.jsonObject()
        let findings = document["findings"] as? [[String: Any]] ?? []
        let finding = findings.first { $0["code"] as? String == expectedCode }
        #expect(finding != nil, "\(findings)")
        // The finding names the file: the bad one, or for a gap the first log after it.
        let named = name == "log.missing" ? logs[1] : logs[0]
        #expect((finding?["file"] as? String)?.hasSuffix(named.lastPathComponent) == true, "\(String(describing: finding))")
        #expect(!result.stderr.contains("Fatal") && !result.stderr.contains("crashed"))
        #expect(try peers.digest("B") == before, "nothing of a log that cannot be used is imported")
        #expect(((document["watermarks"] as? [String: Any])?["A"] as? Int ?? 0) == 0)
        // Other peers' transactions still arrive.
        #expect(try peers.apply("C", [SpeechLines.type("T3", "Keynote")]).status == 0)
        #expect(try peers.sync("C").status == 65)
        let again = try peers.sync("B", ["--json"])
        #expect(again.status == 65)
        #expect(((try again.jsonObject()["watermarks"] as? [String: Any])?["C"] as? Int) == 1)
        // Once A has been synced again (it rewrites the log no peer has imported), B gets everything.
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        #expect(try peers.digest("B") == peers.digest("C"))
    }

    @Test("syncs of two peers at the same moment, and two of one store, all finish and converge")
    func concurrentSyncs() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        let many = (0..<300).map { SpeechLines.speech("SA\($0)", title: "a\($0)") }
        #expect(try peers.apply("A", many).status == 0)
        #expect(try peers.apply("B", (0..<300).map { SpeechLines.speech("SB\($0)", title: "b\($0)") }).status == 0)
        let runs: [[String]] = [["A"], ["B"], ["A"], ["B"]].map { ["sync", peers.store($0[0]), "--container", peers.container] }
        let results = ConcurrentResults(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            results.set(index, try? StorekeepProcess.run(runs[index], timeout: 120))
        }
        for result in results.all { #expect(result?.status == 0, "\(String(describing: result))") }
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
    }
}

/// Results filled in from several threads.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ProcessResult?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: ProcessResult?) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }
    var all: [ProcessResult?] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
