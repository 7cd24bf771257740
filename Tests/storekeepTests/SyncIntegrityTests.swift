import Foundation
import Testing

/// What must never be lost through `sync`: a store restored from a backup that saved something
/// before it synced, the fixes of an import killed before them, a redirect whose baseline is not
/// the one it names.
@Suite("sync integrity")
struct SyncIntegrityTests {
    /// A and B synced with A's first type; A's copy taken; A then saves and publishes a second type,
    /// which B imports. Returns the peers and the path of A's copy (the backup).
    private func peersWithBackup() throws -> (SyncPeers, String) {
        let peers = try SyncPeers(["A", "B"])
        #expect(try peers.apply("A", [SpeechLines.type("a1", "first")]).status == 0)
        _ = try peers.syncUntilQuiet()
        let backup = peers.directory.url.appendingPathComponent("A.backup").path
        try FileManager.default.copyItem(atPath: peers.store("A"), toPath: backup)
        #expect(try peers.apply("A", [SpeechLines.type("a2", "published, then lost")]).status == 0)
        _ = try peers.syncUntilQuiet()
        return (peers, backup)
    }

    private func restore(_ backup: String, into peers: SyncPeers) throws {
        let store = peers.store("A")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: store)
    }

    private func typeCount(_ peers: SyncPeers, _ name: String) throws -> Int? {
        let entities = try StorekeepProcess.run(["digest", peers.store(name), "--json"]).jsonObject()["entities"] as? [String: Any]
        return (entities?["SpeechType"] as? [String: Any])?["records"] as? Int
    }

    @Test("a store restored from a backup that saved before syncing is refused, then continues under a new peer ID without losing a change",
          arguments: [true, false])
    func restoredStore(savedAfterRestore: Bool) throws {
        let (peers, backup) = try peersWithBackup()
        defer { peers.directory.remove() }
        try restore(backup, into: peers)
        if savedAfterRestore {
            // The restored store issues number 2 again, to another transaction.
            #expect(try peers.apply("A", [SpeechLines.type("a3", "made after the restore")]).status == 0)
        }
        let before = try peers.digest("A")
        let refused = try peers.sync("A")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("restored from a backup"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--new-peer-id"), "\(refused.stderr)")
        #expect(try peers.digest("A") == before, "nothing imported or exported")
        #expect(try peers.sync("A").status == 65, "it stays refused")

        let renamed = try peers.sync("A", ["--new-peer-id", "A-restored", "--json"])
        #expect(renamed.status == 0, "\(renamed)")
        let document = try renamed.jsonObject()
        #expect(document["peer"] as? String == "A-restored")
        #expect((document["findings"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "peer.renamed" })
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        // a1, a2 (published by A before the restore) and, when made, a3 are on both.
        #expect(try typeCount(peers, "A") == (savedAfterRestore ? 3 : 2))
        for name in peers.names {
            let check = try StorekeepProcess.run(["check", peers.store(name)])
            #expect(check.status == 0, "\(name): \(check)")
        }
        // B sees A-restored and A in its history; A's later changes go out under A-restored.
        #expect(try peers.apply("A", [SpeechLines.type("a4", "after the new peer ID")]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try typeCount(peers, "B") == (savedAfterRestore ? 4 : 3))
        #expect(try peers.history("B").contains(PeerTransaction(peer: "A-restored", sequence: savedAfterRestore ? 2 : 1)))
    }

    @Test("--new-peer-id is refused for a store that agrees with its logs")
    func newPeerIDOnlyWhenDiverged() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("a1", "first")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        let result = try peers.sync("A", ["--new-peer-id", "A2"])
        #expect(result.status == 64, "\(result)")
        #expect(try peers.issued("A").peer == "A")
    }

    @Test("killed between an import and its fixes, the next sync makes the fixes")
    func importFixesResume() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        // Each device made the singleton Settings record: imported, it is there twice until fixed.
        #expect(try peers.apply("A", [#"{"op":"insert","entity":"Settings","values":{}}"#]).status == 0)
        #expect(try peers.apply("B", [#"{"op":"insert","entity":"Settings","values":{}}"#]).status == 0)
        #expect(try peers.sync("A").status == 0)
        let points = try peers.crashPoints { ["sync", $0.store("B"), "--container", $0.container] }
        let batch = try #require(points.firstIndex(of: "sync.import.batch"), "\(points)")
        #expect(points[(batch + 1)...].contains("sync.fixed"))
        let killed = try StorekeepProcess.run(["sync", peers.store("B"), "--container", peers.container],
                                              environment: ["STOREKEEP_CRASH_AFTER": String(batch + 1)])
        #expect(killed.status == SIGKILL, "\(killed)")
        let between = try StorekeepProcess.run(["check", peers.store("B"), "--json"])
        #expect(between.stdout.contains("singletonDuplicate") || between.stdout.contains("singleton"), "the import is in, the fix is not: \(between.stdout)")
        // The rerun has nothing new to import, and still makes the fix.
        let again = try peers.sync("B", ["--json"])
        #expect(again.status == 0, "\(again)")
        #expect(!((try again.jsonObject()["fixes"] as? [String]) ?? []).isEmpty, "\(again.stdout)")
        #expect(try StorekeepProcess.run(["check", peers.store("B")]).status == 0)
        let authors = try peers.database("B").read { try String.fetchAll($0, sql: "SELECT author FROM sk_transaction WHERE peer = 'B'") }
        #expect(authors.contains("storekeep.import"), "\(authors)")
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        #expect(try StorekeepProcess.run(["check", peers.store("A")]).status == 0)
    }

    @Test("a redirect whose baseline is not the file it names (SHA-256) is not followed")
    func redirectBaselineChecked() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("a1", "first")]).status == 0)
        _ = try peers.syncUntilQuiet()
        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2", "--json"])
        #expect(rekey.status == 0, "\(rekey)")
        let baseline = URL(fileURLWithPath: try #require(try rekey.jsonObject()["baseline"] as? String))
        // Still a well-formed baseline (its own checksum matches), but not the one the redirect names.
        try FramedFileSurgery.rewrite(baseline) { header, _ in header["created"] = 0 }
        let result = try peers.sync("B", ["--json"])
        #expect(result.status == 65, "\(result)")
        let finding = (try result.jsonObject()["findings"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "baseline.damaged" }
        #expect((finding?["message"] as? String)?.contains("SHA-256") == true, "\(result.stdout)")
        let info = try StorekeepProcess.run(["info", peers.store("B"), "--json"]).jsonObject()
        #expect(info["contentName"] as? String == "SpeechTimer", "B stays where it is")
    }
}
