import Foundation
import Testing

/// `rekey` and `archive` SIGKILLed at every crash point they pass (`STOREKEEP_CRASH_AFTER=N` for
/// every N, the points being the steps between their durable writes and the steps of each durable
/// file write) and at random moments: after each kill, every transaction ever made is in a store's
/// history, a log of the container or a verified archive; the same command run again completes;
/// the peers converge.
@Suite("rekey and archive kills")
struct RekeyArchiveKillTests {
    /// A, B, C: A and B synced; C with a speech it has not exported and a Settings record (a
    /// singleton) it has; A with three unexported transactions of three changes and its own
    /// Settings (so that A's sync before the rekey imports, fixes and exports the fix).
    private func rekeyPeers() throws -> SyncPeers {
        let peers = try SyncPeers(["A", "B", "C"])
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.type("T2", "Panel")]).status == 0)
        _ = try peers.syncUntilQuiet()
        #expect(try peers.apply("C", [#"{"op":"insert","entity":"Settings","values":{"theme":"dark"}}"#]).status == 0)
        #expect(try peers.sync("C").status == 0)
        #expect(try peers.apply("C", [SpeechLines.speech("S3", title: "offline on C", type: "T2")]).status == 0)
        #expect(try peers.apply("A", [#"{"op":"insert","entity":"Settings","values":{"theme":"light"}}"#]).status == 0)
        for round in 0..<3 {
            #expect(try peers.apply("A", (0..<3).map { SpeechLines.speech("A\(round)-\($0)", title: "a \(round) \($0)", type: "T1") }).status == 0)
        }
        #expect(try peers.apply("A", [SpeechLines.retitle("S1", "edited on A")]).status == 0)
        return peers
    }

    private func speechCount(_ store: String) throws -> Int? {
        let entities = try StorekeepProcess.run(["digest", store, "--json"]).jsonObject()["entities"] as? [String: Any]
        return (entities?["Speech"] as? [String: Any])?["records"] as? Int
    }

    /// Nothing made is lost, now.
    private func expectNothingLost(_ peers: SyncPeers, _ context: String) throws {
        let lost = try peers.lostTransactions(of: try peers.madeTransactions())
        #expect(lost.isEmpty, "\(context): transactions in no store, no log and no verified archive: \(lost.sorted { $0.description < $1.description })")
    }

    /// The peers synced until quiet hold the same content, `speeches` speeches each, and `check` of A is clean.
    private func expectConverged(_ peers: SyncPeers, speeches: Int, _ context: String) throws {
        #expect(try peers.syncUntilQuiet() <= 5, "\(context)")
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(context): \(digests)")
        #expect(try speechCount(peers.store(peers.names[0])) == speeches, "\(context)")
        // The store the command ran on: its sync counters and history are in order.
        let check = try StorekeepProcess.run(["check", peers.store("A"), "--json"])
        #expect(!check.stdout.contains("\"sync.") && !check.stdout.contains("\"history."), "\(context): \(check.stdout)")
    }

    @Test("rekey killed at every crash point and at random moments: nothing lost, the rerun finishes, every peer converges",
          arguments: [0, 1, 2])
    func rekeyKilledAnywhere(scenario: Int) throws {
        let template = try rekeyPeers()
        defer { template.directory.remove() }
        var target = "SpeechTimer-2"
        if scenario == 1 {
            // A's sync is off: the rekey makes its baseline without syncing first.
            #expect(try template.sync("A", ["--disable"]).status == 0)
        } else if scenario == 2 {
            // A second rekey, while B has not followed the first.
            #expect(try StorekeepProcess.run(["rekey", template.store("A"), "--container", template.container, "--to", "SpeechTimer-2"]).status == 0)
            #expect(try template.sync("C").status == 0)
            target = "SpeechTimer-3"
        }
        let arguments = { (peers: SyncPeers) in
            ["rekey", peers.store("A"), "--container", peers.container, "--to", target, "--changes-per-log", "3"]
        }
        let points = try template.crashPoints(arguments)
        if scenario == 0 {
            #expect(points.count >= 30, "only \(points.count) crash points: \(points)")
            #expect(Set(points).count >= 12, "only \(Set(points).count) distinct crash points: \(points)")
        }
        // 1 + 1 + 9 speeches of A (S1, A0-0…A2-2), C's S3.
        let speeches = 11
        var random = SeededRandom(seed: UInt64(2200 + scenario))
        let kills: [(String, Double?)] = points.indices.map { ("point \($0 + 1) (\(points[$0]))", nil) }
            + (0..<6).map { ("random moment \($0)", Double.random(in: 0.01...0.4, using: &random)) }
        for (index, (context, delay)) in kills.enumerated() {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            let label = "scenario \(scenario), \(context)"
            if let delay {
                _ = try StorekeepProcess.runAndKill(arguments(peers), after: delay)
            } else {
                let killed = try StorekeepProcess.run(arguments(peers), environment: ["STOREKEEP_CRASH_AFTER": String(index + 1)], timeout: 120)
                #expect(killed.status == SIGKILL, "\(label): \(killed)")
            }
            try expectNothingLost(peers, "\(label), after the kill")
            let again = try StorekeepProcess.run(arguments(peers), timeout: 120)
            #expect(again.status == 0, "\(label): \(again)")
            try expectNothingLost(peers, "\(label), after the rerun")
            let info = try StorekeepProcess.run(["info", peers.store("A"), "--json"]).jsonObject()
            #expect(info["contentName"] as? String == target, "\(label)")
            if scenario == 1 { #expect(try peers.sync("A", ["--enable"]).status == 0) }
            try expectConverged(peers, speeches: speeches, label)
            try expectNothingLost(peers, "\(label), after converging")
        }
    }

    @Test("archive killed at every crash point and at random moments: nothing lost, the rerun finishes (history pruned), a new peer reaches the same content")
    func archiveKilledAnywhere() throws {
        let template = try SyncPeers.exchanging(rounds: 6)
        defer { template.directory.remove() }
        let arguments = { (peers: SyncPeers) in ["archive", peers.store("A"), "--container", peers.container, "--json"] }
        let points = try template.crashPoints(arguments)
        #expect(points.count >= 30, "only \(points.count) crash points: \(points)")
        #expect(Set(points).count >= 9, "only \(Set(points).count) distinct crash points: \(points)")
        // What a run that is never stopped leaves in A's history.
        let clean = try template.copy()
        defer { clean.directory.remove() }
        #expect(try StorekeepProcess.run(arguments(clean)).status == 0)
        let prunedHistory = try clean.history("A")
        #expect(prunedHistory.count < (try template.history("A")).count, "a clean run prunes history")

        var random = SeededRandom(seed: 2210)
        let kills: [(String, Double?)] = points.indices.map { ("point \($0 + 1) (\(points[$0]))", nil) }
            + (0..<6).map { ("random moment \($0)", Double.random(in: 0.01...0.3, using: &random)) }
        for (index, (context, delay)) in kills.enumerated() {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            if let delay {
                _ = try StorekeepProcess.runAndKill(arguments(peers), after: delay)
            } else {
                let killed = try StorekeepProcess.run(arguments(peers), environment: ["STOREKEEP_CRASH_AFTER": String(index + 1)])
                #expect(killed.status == SIGKILL, "\(context): \(killed)")
            }
            try expectNothingLost(peers, "\(context), after the kill")
            let again = try StorekeepProcess.run(arguments(peers))
            #expect(again.status == 0, "\(context): \(again)")
            try expectNothingLost(peers, "\(context), after the rerun")
            #expect(try peers.logs("A").isEmpty && peers.logs("B").isEmpty, "\(context): every log was imported by both, so every log left")
            #expect(try peers.history("A") == prunedHistory, "\(context): the history is pruned as a run never stopped prunes it")
            let archives = try peers.logFolder("A").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("archives")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: archives.path).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty, "\(context): temporary files left: \(leftovers)")
            // A new device joins after the archive: the baseline gives it the same content.
            let fresh = peers.directory.url.appendingPathComponent("N.store").path
            #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
            #expect(try StorekeepProcess.run(["sync", fresh, "--container", peers.container]).status == 0)
            let joined = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
            #expect(joined == (try peers.digest("A")), "\(context)")
            try expectConverged(peers, speeches: 12, context)
        }
    }
}
