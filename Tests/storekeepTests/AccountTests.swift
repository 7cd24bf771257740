import Foundation
import SyncContainer
import SyncStore
import Testing

/// `account` and sync across account changes through the real binary (article 5): data of two
/// accounts never mixes, and no change of account deletes local data silently.
@Suite("account changes")
struct AccountTests {
    private func account(_ peers: SyncPeers, _ peer: String, _ extra: [String]) throws -> ProcessResult {
        try StorekeepProcess.run(["account", peers.store(peer)] + extra + ["--json"])
    }

    /// Peer A of account alice, with speech S1, synced into the container.
    private func alicesPeerSynced() throws -> SyncPeers {
        let peers = try SyncPeers(["A"])
        guard try account(peers, "A", ["--set", "alice"]).status == 0,
              try peers.apply("A", [SpeechLines.speech("S1", title: "alice's")]).status == 0,
              try peers.sync("A").status == 0 else {
            peers.directory.remove()
            throw StorekeepProcess.HarnessError(description: "could not make alice's synced peer A")
        }
        return peers
    }

    @Test("a store without an account adopts its data; another account is refused without a choice")
    func adoptAndRefuse() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "mine")]).status == 0)
        let before = try peers.digest("A")
        let adopted = try account(peers, "A", ["--set", "alice"])
        #expect(adopted.status == 0, "\(adopted)")
        #expect(try adopted.jsonObject()["action"] as? String == "adopted")
        #expect(try peers.digest("A") == before, "adopting keeps every record")

        let refused = try account(peers, "A", ["--set", "bob"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("--keep-local") && refused.stderr.contains("--reset"), "\(refused.stderr)")
        #expect(try account(peers, "A", []).jsonObject()["account"] as? String == "alice")

        let usage = try StorekeepProcess.run(["account", peers.store("A"), "--keep-local"])
        #expect(usage.status == 64, "\(usage)")
    }

    @Test("sync refuses a container of another account and exchanges nothing")
    func syncRefusesAnotherAccount() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try account(peers, "B", ["--set", "bob"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "alice's")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "bob's")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        let before = try peers.digest("B")
        let refused = try peers.sync("B", ["--json"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stdout.contains("account.mismatch") || refused.stderr.contains("account"), "\(refused)")
        #expect(try peers.digest("B") == before, "nothing of alice's came into bob's store")
        #expect(try SyncStore.open(at: peers.store("B"), readOnly: true).record(GlobalID("S1")) == nil)
        #expect((try? peers.logs("B"))?.isEmpty ?? true, "nothing of bob's went into alice's namespace")
    }

    @Test("a first sync killed before it wrote its manifest: its logs still say whose they are, and another account's store takes nothing")
    func logsCarryTheirAccount() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try account(peers, "B", ["--set", "bob"]).status == 0)
        #expect(try account(peers, "C", ["--set", "alice"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "alice's")]).status == 0)
        // Killed right after its first log was published: no manifest.
        let points = try peers.crashPoints { ["sync", $0.store("A"), "--container", $0.container] }
        let published = try #require(points.firstIndex(of: "sync.log.published"), "\(points)")
        let killed = try StorekeepProcess.run(["sync", peers.store("A"), "--container", peers.container],
                                              environment: ["STOREKEEP_CRASH_AFTER": String(published + 1)])
        #expect(killed.status == SIGKILL, "\(killed)")
        let log = try #require(try peers.logs("A").first)
        #expect(!FileManager.default.fileExists(atPath: log.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("manifest.json").path))
        #expect(String(decoding: try Data(contentsOf: log).prefix(600), as: UTF8.self).contains(#""account":"alice""#), "the header names the account")

        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "bob's")]).status == 0)
        let before = try peers.digest("B")
        let refused = try peers.sync("B", ["--json"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stdout.contains("account.mismatch"), "\(refused.stdout)")
        #expect(try peers.digest("B") == before, "nothing of alice's came in")
        #expect((try? peers.logs("B"))?.isEmpty ?? true, "nothing of bob's went out")
        // alice's other store takes it.
        #expect(try peers.sync("C").status == 0)
        #expect(try SyncStore.open(at: peers.store("C"), readOnly: true).record(GlobalID("S1")) != nil)
    }

    @Test("the baselines rekey and archive write name the store's account")
    func baselinesCarryTheAccount() throws {
        let peers = try alicesPeerSynced()
        defer { peers.directory.remove() }
        #expect(try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--to", peers.directory.url.appendingPathComponent("archives").path]).status == 0)
        #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "ST-rekeyed"]).status == 0)
        let baselines = (FileManager.default.enumerator(atPath: peers.container)?.allObjects as? [String] ?? [])
            .filter { $0.contains("/baselines/") && !$0.hasPrefix(".") && !($0.split(separator: "/").last?.hasPrefix(".") ?? true) }
        #expect(baselines.count >= 2, "\(baselines)")
        for baseline in baselines {
            let head = try Data(contentsOf: URL(fileURLWithPath: peers.container).appendingPathComponent(baseline)).prefix(800)
            #expect(String(decoding: head, as: UTF8.self).contains(#""account":"alice""#), "\(baseline)")
        }
    }

    @Test("a store with an account and one without share nothing until the second adopts the account")
    func accountAndNoAccount() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "alice's")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "nobody's")]).status == 0)
        #expect(try peers.sync("B").status == 0, "alone in the container, B syncs")
        // A exports, but leaves B's data out: it is no account's.
        let onA = try peers.sync("A", ["--json"])
        #expect(onA.status == 65 && onA.stdout.contains("account.mismatch"), "\(onA)")
        #expect(try !peers.logs("A").isEmpty, "A's own data was exported")
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).record(GlobalID("S2")) == nil)
        // B is refused: the namespace holds an account's data now.
        let onB = try peers.sync("B", ["--json"])
        #expect(onB.status == 65 && onB.stdout.contains("account.mismatch"), "\(onB)")
        #expect(try SyncStore.open(at: peers.store("B"), readOnly: true).record(GlobalID("S1")) == nil)
        // B adopts alice: its data is kept, and both get everything.
        #expect(try account(peers, "B", ["--set", "alice"]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 4)
        for peer in ["A", "B"] {
            let store = try SyncStore.open(at: peers.store(peer), readOnly: true)
            #expect(try store.record(GlobalID("S1")) != nil && store.record(GlobalID("S2")) != nil, "\(peer)")
        }
    }

    @Test("an account baseline larger than one part (8 MiB) is written and merged a part at a time: the new account's peer gets every recording")
    func largeAccountBaselineInParts() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        let alice = peers.directory.url.appendingPathComponent("alice").path, bob = peers.directory.url.appendingPathComponent("bob").path
        for folder in [alice, bob] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        func sync(_ peer: String, _ container: String) throws -> ProcessResult {
            try StorekeepProcess.run(["sync", peers.store(peer), "--container", container, "--json"], timeout: 120)
        }
        for name in ["A", "B"] { #expect(try account(peers, name, ["--set", "alice"]).status == 0) }
        #expect(try account(peers, "C", ["--set", "bob"]).status == 0)
        // B's four recordings of 3.5 MiB reach A through alice's container: two parts of content
        // (a part ends after the item that takes it past 8 MiB).
        let recordings = (1...4).map { seed in Data((0..<(7 << 19)).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 9) &+ seed) }) }
        #expect(try peers.apply("B", recordings.enumerated().map { index, recording in
            #"{"op":"insert","entity":"Speech","id":"R\#(index)","values":{"title":"long \#(index)","date":"2026-11-25T10:00:00Z","duration":30.5,"recording":"\#(recording.base64EncodedString())"}}"#
        }).status == 0)
        #expect(try sync("B", alice).status == 0)
        #expect(try sync("A", alice).status == 0)
        // A moves to bob's account with them: its baseline is the only place B's changes are there.
        #expect(try account(peers, "A", ["--set", "bob", "--keep-local"]).status == 0)
        let published = try sync("A", bob)
        #expect(published.status == 0, "\(published)")
        let path = try #require((try published.jsonObject()["baselinesPublished"] as? [String])?.first, "\(published.stdout)")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let namespace = SyncNamespace(container: bob, contentName: "SpeechTimer", modelHash: folder.deletingLastPathComponent().lastPathComponent)
        var parts = 0
        _ = try namespace.readBaseline(URL(fileURLWithPath: path).lastPathComponent) { _ in parts += 1 }
        #expect(parts >= 2, "its body is one zstd frame per part: \(parts)")
        // C joins bob's container: the baseline brings B's recordings, merged a part at a time.
        let joined = try sync("C", bob)
        let applied = try joined.jsonObject()["baselinesApplied"] as? [String]
        #expect(joined.status == 0 && applied?.count == 1, "\(joined)")
        let onC = try SyncStore.open(at: peers.store("C"), readOnly: true)
        for (index, recording) in recordings.enumerated() {
            #expect(try onC.record(GlobalID("R\(index)"))?.values["recording"] == .binary(recording))
        }
        #expect(try peers.digest("A") == (try peers.digest("C")))
    }

    @Test("--keep-local moves the data to the new account's container; --reset keeps a verified backup")
    func keepLocalAndReset() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        // Each account has its own container, as each iCloud account has its own.
        let alice = peers.directory.url.appendingPathComponent("alice").path, bob = peers.directory.url.appendingPathComponent("bob").path
        for folder in [alice, bob] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        func sync(_ peer: String, _ container: String) throws -> Int32 {
            try StorekeepProcess.run(["sync", peers.store(peer), "--container", container], timeout: 120).status
        }
        for name in ["A", "B"] { #expect(try account(peers, name, ["--set", "alice"]).status == 0) }
        #expect(try account(peers, "C", ["--set", "bob"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "from A")]).status == 0)
        #expect(try sync("A", alice) == 0)
        #expect(try sync("B", alice) == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "from B")]).status == 0)

        // B moves to bob's account keeping its data, S1 (which came from A) included.
        let kept = try account(peers, "B", ["--set", "bob", "--keep-local"])
        #expect(kept.status == 0, "\(kept)")
        #expect(try sync("B", alice) == 65, "B no longer syncs with alice's container")
        #expect(try sync("B", bob) == 0)
        #expect(try sync("C", bob) == 0)
        let onC = try SyncStore.open(at: peers.store("C"), readOnly: true)
        #expect(try onC.record(GlobalID("S1")) != nil, "what B had from alice's A came with it")
        #expect(try onC.record(GlobalID("S2")) != nil)

        // A resets to bob's account: its data is set aside in a backup that still holds it.
        let reset = try account(peers, "A", ["--set", "bob", "--reset"])
        #expect(reset.status == 0, "\(reset)")
        let backup = try #require(try reset.jsonObject()["backup"] as? String)
        #expect(try SyncStore.open(at: backup, readOnly: true).record(GlobalID("S1")) != nil)
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).record(GlobalID("S1")) == nil)
        #expect(try sync("A", bob) == 0)
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).record(GlobalID("S2")) != nil,
                "the reset store gets bob's data from bob's container")
        #expect(try peers.digest("A") == (try peers.digest("C")))
    }

    @Test("a store whose own folder in the container is another account's (it changed account since): sync and rekey refuse, nothing exported")
    func ownFolderOfAnotherAccount() throws {
        let peers = try alicesPeerSynced()
        defer { peers.directory.remove() }
        let logs = try peers.logs("A")
        // Only A's own folder says whose namespace this is: no other peer, no baseline.
        #expect(try account(peers, "A", ["--set", "bob", "--keep-local"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S2", title: "bob's")]).status == 0)
        let manifest = URL(fileURLWithPath: try #require(logs.first).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("manifest.json").path)
        let manifestBefore = try Data(contentsOf: manifest)

        let refused = try peers.sync("A", ["--json"])
        #expect(refused.status == 65, "\(refused)")
        let findings = try refused.jsonObject()["findings"] as? [[String: Any]] ?? []
        let finding = try #require(findings.first { $0["code"] as? String == "account.mismatch" }, "\(refused.stdout)")
        #expect((finding["message"] as? String)?.contains("own folder here holds data of account alice") == true, "\(finding)")
        #expect((finding["message"] as? String)?.contains("account bob") == true, "\(finding)")
        #expect(finding["peer"] as? String == "A" && (finding["hint"] as? String)?.contains("bob") == true, "\(finding)")
        #expect(try peers.logs("A") == logs, "nothing of bob's went into alice's namespace")
        #expect(try Data(contentsOf: manifest) == manifestBefore, "the manifest still says alice")
        let baselines = (FileManager.default.subpaths(atPath: peers.container) ?? []).filter { $0.contains("baselines/") && $0.hasSuffix(".skbase") }
        #expect(baselines.isEmpty, "no baseline of bob's data: \(baselines)")

        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "ST-moved"])
        #expect(rekey.status == 65 && rekey.stderr.contains("account alice"), "\(rekey)")
        #expect(try peers.logs("A") == logs)
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).metadata.contentName == "SpeechTimer")

        // Back to alice: its own folder is its account's again.
        #expect(try account(peers, "A", ["--set", "alice", "--keep-local"]).status == 0)
        #expect(try peers.sync("A").status == 0)
    }

    @Test("A → B → A with --keep-local, with another peer of A: the data ends up the last account's, exported on the next sync, nothing lost")
    func switchAndSwitchBack() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        let alice = peers.directory.url.appendingPathComponent("alice").path, bob = peers.directory.url.appendingPathComponent("bob").path
        for folder in [alice, bob] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        func sync(_ peer: String, _ container: String) throws -> ProcessResult {
            try StorekeepProcess.run(["sync", peers.store(peer), "--container", container, "--json"], timeout: 120)
        }
        func has(_ peer: String, _ ids: [String]) throws -> [String] {
            let store = try SyncStore.open(at: peers.store(peer), readOnly: true)
            return try ids.filter { try store.record(GlobalID($0)) == nil }
        }
        for name in ["A", "B"] { #expect(try account(peers, name, ["--set", "alice"]).status == 0) }
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "A, alice")]).status == 0)
        #expect(try sync("A", alice).status == 0)
        #expect(try sync("B", alice).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "B, alice")]).status == 0)
        #expect(try sync("B", alice).status == 0)
        #expect(try sync("A", alice).status == 0)

        // A → bob, keeping its data (S1, and S2 from B), and adds S3 as bob's.
        #expect(try account(peers, "A", ["--set", "bob", "--keep-local"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S3", title: "A, bob")]).status == 0)
        #expect(try sync("A", alice).status == 65, "A no longer syncs with alice's container")
        #expect(try sync("A", bob).status == 0)
        // A → alice again, keeping everything, and adds S4.
        let back = try account(peers, "A", ["--set", "alice", "--keep-local"])
        #expect(back.status == 0, "\(back)")
        #expect(try back.jsonObject()["action"] as? String == "keptLocal", "\(back)")
        #expect(try account(peers, "A", []).jsonObject()["account"] as? String == "alice", "the account set last")
        #expect(try peers.apply("A", [SpeechLines.speech("S4", title: "A, alice again")]).status == 0)
        #expect(try sync("A", bob).status == 65, "A no longer syncs with bob's container")
        let exported = try sync("A", alice)
        #expect(exported.status == 0, "\(exported)")
        #expect((try exported.jsonObject()["baselinesPublished"] as? [String])?.isEmpty == false, "the kept data is published as alice's: \(exported.stdout)")
        #expect(try sync("B", alice).status == 0)
        #expect(try sync("A", alice).status == 0)

        let all = ["S1", "S2", "S3", "S4"]
        let lostOnA = try has("A", all), lackingOnB = try has("B", all)
        #expect(lostOnA.isEmpty, "A lost \(lostOnA)")
        #expect(lackingOnB.isEmpty, "B lacks \(lackingOnB): what A made as bob's is alice's now")
        #expect(try peers.digest("A") == (try peers.digest("B")))
        // alice's container holds nothing of another account: a new alice peer gets everything.
        let newcomer = peers.store("C")
        #expect(try StorekeepProcess.run(["init", newcomer, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "C"]).status == 0)
        #expect(try StorekeepProcess.run(["account", newcomer, "--set", "alice"]).status == 0)
        let joined = try StorekeepProcess.run(["sync", newcomer, "--container", alice, "--json"], timeout: 120)
        #expect(joined.status == 0, "\(joined)")
        #expect(try SyncStore.open(at: newcomer, readOnly: true).contentDigest() == SyncStore.open(at: peers.store("A"), readOnly: true).contentDigest())
    }
}
