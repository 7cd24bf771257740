import Foundation
import ObjectModel
import SyncStore
import Testing

/// Every account transition of article 5 through the real binary, with the data that must survive
/// it: the same account again, a store without an account joining an account's container, seeding
/// after a switch (a new account gets its seed data, once), `seed --account` naming another account,
/// a reset of a store with external binary values, keeping local data into a container that already
/// holds the same seeds.
@Suite("account transitions")
struct AccountTransitionTests {
    private func account(_ peers: SyncPeers, _ peer: String, _ extra: [String]) throws -> ProcessResult {
        try StorekeepProcess.run(["account", peers.store(peer)] + extra + ["--json"])
    }

    /// A container folder of its own for `account` (each account has its own, as each iCloud account has).
    private func container(_ peers: SyncPeers, _ account: String) throws -> String {
        let path = peers.directory.url.appendingPathComponent("container-\(account)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func sync(_ peers: SyncPeers, _ peer: String, _ container: String) throws -> ProcessResult {
        try StorekeepProcess.run(["sync", peers.store(peer), "--container", container, "--json"], timeout: 120)
    }

    private func backups(_ peers: SyncPeers, of peer: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: peers.directory.url.path)
            .filter { $0.hasPrefix("\(peer).store.account-") && $0.hasSuffix(".backup") }
            .map { peers.directory.url.appendingPathComponent($0).path }
    }

    @Test("the same account again changes nothing, even with --reset")
    func sameAccount() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "mine")]).status == 0)
        let before = try peers.digest("A")
        for extra in [[], ["--reset"], ["--keep-local"]] {
            let again = try account(peers, "A", ["--set", "alice"] + extra)
            #expect(again.status == 0, "\(again)")
            #expect(try again.jsonObject()["action"] as? String == "unchanged")
        }
        #expect(try peers.digest("A") == before)
        #expect(try backups(peers, of: "A").isEmpty, "no backup, nothing set aside")
    }

    @Test("a store without an account is refused by an account's container until it adopts the account; then both sides get everything")
    func accountlessStoreJoinsAnAccount() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        let alice = try container(peers, "alice")
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "alice's")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "local, before signing in")]).status == 0)
        #expect(try sync(peers, "A", alice).status == 0)

        let before = try peers.digest("B")
        let refused = try sync(peers, "B", alice)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stdout.contains("account.mismatch"), "\(refused.stdout)")
        #expect(try peers.digest("B") == before, "nothing imported")
        let exported = try FileManager.default.subpathsOfDirectory(atPath: alice).contains { $0.hasSuffix("peers/B") }
        #expect(!exported, "nothing exported: B has no folder in alice's container")

        let adopted = try account(peers, "B", ["--set", "alice"])
        #expect(try adopted.jsonObject()["action"] as? String == "adopted")
        #expect(try peers.digest("B") == before, "adopting keeps the local data")
        #expect(try sync(peers, "B", alice).status == 0)
        #expect(try sync(peers, "A", alice).status == 0)
        for peer in ["A", "B"] {
            let store = try SyncStore.open(at: peers.store(peer), readOnly: true)
            #expect(try store.record(GlobalID("S1")) != nil && store.record(GlobalID("S2")) != nil, "\(peer) holds both")
        }
    }

    @Test("after an account switch the new account gets its seed data once; seed --account of another account is refused")
    func seedingAcrossAccounts() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect((try peers.seed("A", SyncPeers.builtinTypes)["inserted"] as? [String])?.count == 5)

        // seed --account must be the store's account.
        let before = try peers.digest("A")
        let wrong = try StorekeepProcess.run(["seed", peers.store("A"), "--from", SyncPeers.builtinTypes, "--account", "bob"])
        #expect(wrong.status == 65, "\(wrong)")
        #expect(wrong.stderr.contains("alice") && wrong.stderr.contains("account"), "\(wrong.stderr)")
        #expect(try peers.digest("A") == before)
        #expect(try peers.seed("A", SyncPeers.builtinTypes, ["--account", "alice"])["alreadySeeded"] as? Bool == true)

        // Keeping the local data into bob's account: the records are there already, and bob's seed mark is new.
        #expect(try account(peers, "A", ["--set", "bob", "--keep-local"]).status == 0)
        let forBob = try peers.seed("A", SyncPeers.builtinTypes)
        #expect(forBob["account"] as? String == "bob" && forBob["alreadySeeded"] as? Bool == false, "\(forBob)")
        #expect((forBob["present"] as? [String])?.count == 5 && (forBob["inserted"] as? [String] ?? []).isEmpty, "\(forBob)")
        #expect(try peers.seed("A", SyncPeers.builtinTypes)["alreadySeeded"] as? Bool == true, "once per account")
        #expect(try peers.digest("A") == before, "no record changed")

        // A reset store starts empty: seeding it for the new account inserts the records again.
        #expect(try account(peers, "B", ["--set", "alice"]).status == 0)
        _ = try peers.seed("B", SyncPeers.builtinTypes)
        #expect(try account(peers, "B", ["--set", "carol", "--reset"]).status == 0)
        let afterReset = try peers.seed("B", SyncPeers.builtinTypes)
        #expect((afterReset["inserted"] as? [String])?.count == 5 && afterReset["account"] as? String == "carol", "\(afterReset)")
    }

    @Test("--keep-local into an account whose container holds the same seeds: one record per seed key")
    func keepLocalMeetsTheSameSeeds() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        let bob = try container(peers, "bob")
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        #expect(try account(peers, "B", ["--set", "bob"]).status == 0)
        for peer in ["A", "B"] { _ = try peers.seed(peer, SyncPeers.builtinTypes) }
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "alice's, kept")]).status == 0)
        #expect(try sync(peers, "B", bob).status == 0)

        #expect(try account(peers, "A", ["--set", "bob", "--keep-local"]).status == 0)
        for peer in ["A", "B", "A"] { #expect(try sync(peers, peer, bob).status == 0) }
        for peer in ["A", "B"] {
            let names = try peers.typeNames(peer)
            #expect(names.count == 5 && names.values.allSatisfy { $0 == 1 }, "\(peer): \(names)")
            #expect(try SyncStore.open(at: peers.store(peer), readOnly: true).record(GlobalID("S1")) != nil, "the kept speech reached \(peer)")
        }
        #expect(try peers.digest("A") == (try peers.digest("B")))
    }

    @Test("--reset of a store with external binary values: the backup holds them; the store starts without them")
    func resetKeepsBlobsInTheBackup() throws {
        let (peers, recording) = try aliceWithARecording()
        defer { peers.directory.remove() }
        let blobs = peers.store("A") + ".blobs"
        #expect(try !FileManager.default.subpathsOfDirectory(atPath: blobs).isEmpty, "the recording is an external file")

        let reset = try account(peers, "A", ["--set", "bob", "--reset"])
        #expect(reset.status == 0, "\(reset)")
        let backup = try #require(try reset.jsonObject()["backup"] as? String)
        #expect(try SyncStore.open(at: backup, readOnly: true).record(GlobalID("S1"))?.values["recording"] == .binary(recording))
        #expect(!FileManager.default.fileExists(atPath: blobs), "the new store has no old external files")
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).record(GlobalID("S1")) == nil)
        #expect(try StorekeepProcess.run(["check", peers.store("A")]).status == 0)
    }

    @Test("--reset killed at each of its steps leaves the old store or the new one, whole; the run again finishes it")
    func resetKilledAtEveryStep() throws {
        let (template, recording) = try aliceWithARecording()
        defer { template.directory.remove() }
        // Crash points: backed up, new store created, new store in place, old external files moved aside.
        for point in 1...4 {
            let peers = try template.copy()
            defer { peers.directory.remove() }
            let killed = try StorekeepProcess.run(["account", peers.store("A"), "--set", "bob", "--reset"],
                                                  environment: ["STOREKEEP_CRASH_AFTER": String(point)])
            #expect(killed.status == SIGKILL, "point \(point): \(killed)")
            // Whole: the old store with its data, or the new one, empty. (The connection is closed
            // before the run again: a reset is refused while another process has the store open.)
            do {
                let store = try SyncStore.open(at: peers.store("A"), readOnly: true)
                switch store.metadata.accountToken {
                case "alice": #expect(try store.record(GlobalID("S1"))?.values["recording"] == .binary(recording), "point \(point)")
                case "bob": #expect(try store.record(GlobalID("S1")) == nil, "point \(point)")
                default: Issue.record("point \(point): account \(store.metadata.accountToken ?? "none")")
                }
                if point == 1 {
                    let busy = try account(peers, "A", ["--set", "bob", "--reset"])
                    #expect(busy.status == 75 && busy.stderr.contains("another process"), "\(busy)")
                }
            }
            let again = try account(peers, "A", ["--set", "bob", "--reset"])
            #expect(again.status == 0, "point \(point): \(again)")
            #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).metadata.accountToken == "bob")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: peers.directory.url.path).filter { $0.hasPrefix(".A.store") || $0.hasPrefix("..A.store") }
            #expect(leftovers.isEmpty, "point \(point): \(leftovers)")
            // Some backup holds the data, external value included.
            let held = try backups(peers, of: "A").contains { path in
                try SyncStore.open(at: path, readOnly: true).record(GlobalID("S1"))?.values["recording"] == .binary(recording)
            }
            #expect(held, "point \(point): no backup holds S1")
            #expect(try StorekeepProcess.run(["check", peers.store("A")]).status <= 1, "point \(point)")
        }
    }

    /// Peer A of account alice with speech S1, whose recording (over 4 KB, returned) is kept in an external file.
    private func aliceWithARecording() throws -> (SyncPeers, Data) {
        let peers = try SyncPeers(["A"])
        #expect(try account(peers, "A", ["--set", "alice"]).status == 0)
        let recording = Data((0..<6_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let speech = #"{"op":"insert","entity":"Speech","id":"S1","values":{"title":"recorded","date":"2026-11-25T10:00:00Z","duration":30.5,"recording":"\#(recording.base64EncodedString())"}}"#
        #expect(try peers.apply("A", [speech]).status == 0)
        return (peers, recording)
    }
}
