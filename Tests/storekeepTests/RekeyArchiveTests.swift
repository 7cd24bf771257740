import Foundation
import Testing

/// `rekey` and `archive` through the real binary: every peer follows a rekey, SIGKILL at every kill
/// point of either command leaves nothing lost and the same command run again finishes, archives
/// verify and restore, and a new peer after an archive reaches the same content.
@Suite("rekey and archive")
struct RekeyArchiveTests {
    /// A, B, C of one content name: A and B synced, C with changes it has not exported.
    private func threePeers() throws -> SyncPeers {
        let peers = try SyncPeers(["A", "B", "C"])
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.type("T2", "Panel")]).status == 0)
        for name in peers.names { #expect(try peers.sync(name).status == 0) }
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.apply("C", [SpeechLines.speech("S3", title: "offline on C", type: "T2")]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.retitle("S1", "edited on A")]).status == 0)
        return peers
    }

    private func run(_ arguments: [String], crashAfter point: Int?) throws -> ProcessResult {
        try StorekeepProcess.run(arguments, environment: point.map { ["STOREKEEP_CRASH_AFTER": String($0)] } ?? [:], timeout: 120)
    }

    @Test("every peer follows a rekey, its unexported changes included")
    func everyPeerFollows() throws {
        let peers = try threePeers()
        defer { peers.directory.remove() }
        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2", "--json"])
        #expect(rekey.status == 0, "\(rekey)")
        // C has not followed yet: check says so.
        let check = try StorekeepProcess.run(["check", peers.store("C"), "--json"])
        #expect(check.stdout.contains("sync.redirected"), "\(check.stdout)")
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        for name in peers.names {
            let info = try StorekeepProcess.run(["info", peers.store(name), "--json"]).jsonObject()
            #expect(info["contentName"] as? String == "SpeechTimer-2")
            #expect(((info["rekeys"] as? [[String: Any]])?.first)?["to"] as? String == "SpeechTimer-2")
        }
        let speeches = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 2, "C's offline speech arrived")
    }

    @Test("rekey killed at each of its points finishes when run again, and every peer converges", arguments: [0, 1, 2])
    func rekeyKilledAnywhere(scenario: Int) throws {
        var point = 1
        var killed = 0
        let template = try threePeers()
        defer { template.directory.remove() }
        while true {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            var target = "SpeechTimer-2"
            if scenario == 1 {
                // A's sync is off: the rekey makes its baseline without syncing first.
                #expect(try peers.sync("A", ["--disable"]).status == 0)
            } else if scenario == 2 {
                // A second rekey, while B has not followed the first.
                #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"]).status == 0)
                #expect(try peers.sync("C").status == 0)
                target = "SpeechTimer-3"
            }
            let arguments = ["rekey", peers.store("A"), "--container", peers.container, "--to", target]
            let first = try run(arguments, crashAfter: point)
            if first.status == 0 { break }
            killed += 1
            let again = try run(arguments, crashAfter: nil)
            #expect(again.status == 0, "scenario \(scenario), point \(point): \(again)")
            if scenario == 1 { #expect(try peers.sync("A", ["--enable"]).status == 0) }
            #expect(try peers.syncUntilQuiet() <= 5, "scenario \(scenario), point \(point)")
            let digests = try peers.names.map { try peers.digest($0) }
            #expect(Set(digests).count == 1, "scenario \(scenario), point \(point): \(digests)")
            let speeches = try StorekeepProcess.run(["digest", peers.store("A"), "--json"]).jsonObject()["entities"] as? [String: Any]
            #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 2, "scenario \(scenario), point \(point)")
            point += 1
        }
        #expect(killed >= 5, "scenario \(scenario): only \(killed) kill points were reached")
    }

    /// A and B, each with `rounds` logs, all imported by both.
    private func peersWithLogs(rounds: Int) throws -> SyncPeers {
        let peers = try SyncPeers(["A", "B"])
        for round in 0..<rounds {
            #expect(try peers.apply("A", [SpeechLines.speech("A\(round)", title: "a \(round)")]).status == 0)
            #expect(try peers.apply("B", [SpeechLines.speech("B\(round)", title: "b \(round)")]).status == 0)
            #expect(try peers.sync("A").status == 0)
            #expect(try peers.sync("B").status == 0)
        }
        #expect(try peers.syncUntilQuiet() <= 3)
        return peers
    }

    @Test("archive killed at each of its points finishes when run again; a new peer then reaches the same content")
    func archiveKilledAnywhere() throws {
        var point = 1
        var killed = 0
        let template = try peersWithLogs(rounds: 14)
        defer { template.directory.remove() }
        while true {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            let arguments = ["archive", peers.store("A"), "--container", peers.container, "--json"]
            let first = try run(arguments, crashAfter: point)
            if first.status == 0 { break }
            killed += 1
            let again = try run(arguments, crashAfter: nil)
            #expect(again.status == 0, "point \(point): \(again)")
            #expect(try peers.logs("A").isEmpty && peers.logs("B").isEmpty, "point \(point): every log was imported by both, so every log left")
            let archives = try FileManager.default.contentsOfDirectory(atPath: try peers.logFolder("A").deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("archives").path)
            #expect(!archives.isEmpty)
            // A new device joins after the archive: the baseline and what is left give the same content.
            let fresh = peers.directory.url.appendingPathComponent("N.store").path
            #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
            #expect(try StorekeepProcess.run(["sync", fresh, "--container", peers.container]).status == 0)
            let joined = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
            #expect(joined == (try peers.digest("A")), "point \(point)")
            #expect(try peers.digest("A") == peers.digest("B"))
            point += 1
        }
        #expect(killed >= 18, "only \(killed) kill points were reached")
    }

    @Test("a damaged or truncated archive is named by verify and refused by restore; a good one restores a lost container")
    func verifyAndRestore() throws {
        let peers = try peersWithLogs(rounds: 3)
        defer { peers.directory.remove() }
        let report = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"]).jsonObject()
        let archive = try #require(report["archive"] as? String)
        #expect(try StorekeepProcess.run(["archive", "verify", archive]).status == 0)
        let list = try StorekeepProcess.run(["archive", "list", archive, "--json"]).jsonObject()
        #expect((list["entries"] as? [[String: Any]])?.count == 6, "the 6 logs (no rekey made a baseline to keep)")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        let damagedPath = peers.directory.url.appendingPathComponent("damaged.tar.zst").path
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        let verify = try StorekeepProcess.run(["archive", "verify", damagedPath])
        #expect(verify.status == 65, "\(verify)")
        #expect(verify.stderr.contains("damaged.tar.zst"))
        let truncatedPath = peers.directory.url.appendingPathComponent("truncated.tar.zst").path
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: truncatedPath))
        #expect(try StorekeepProcess.run(["archive", "verify", truncatedPath]).status == 65)
        let newContainer = peers.directory.url.appendingPathComponent("rebuilt").path
        try FileManager.default.createDirectory(atPath: newContainer, withIntermediateDirectories: true)
        #expect(try StorekeepProcess.run(["archive", "restore", truncatedPath, "--container", newContainer]).status == 65)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: newContainer).isEmpty, "nothing is written from a damaged archive")

        // The container is lost; the archive is restored into a new one, the peers sync, a new device joins.
        let restore = try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer])
        #expect(restore.status == 0, "\(restore)")
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer]).status == 73, "nothing is overwritten")
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer, "--force"]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("late", title: "after the archive")]).status == 0)
        for name in peers.names { #expect(try StorekeepProcess.run(["sync", peers.store(name), "--container", newContainer]).status == 0) }
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        #expect(try StorekeepProcess.run(["sync", fresh, "--container", newContainer]).status == 0)
        for name in peers.names { #expect(try StorekeepProcess.run(["sync", peers.store(name), "--container", newContainer]).status == 0) }
        let joined = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
        #expect(joined == (try peers.digest("B")))
        #expect(try peers.digest("A") == peers.digest("B"))
    }
}
