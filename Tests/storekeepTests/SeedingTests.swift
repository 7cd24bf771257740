import Foundation
import GRDB
import ObjectModel
import SyncStore
import Testing

/// `seed` through the real binary (article 1): peers that seed offline end up with one copy of each
/// built-in record; a newer version of the set never overwrites the user's edits nor brings back
/// what the user deleted; seeding twice does nothing.
@Suite("seed: once per peer per account")
struct SeedingTests {
    static var builtinTypes: String { SyncPeers.builtinTypes }

    private func seed(_ peers: SyncPeers, _ peer: String, _ set: String) throws -> [String: Any] { try peers.seed(peer, set) }

    private func typeNames(_ peers: SyncPeers, _ peer: String) throws -> [String: Int] { try peers.typeNames(peer) }

    @Test("peers that seed offline, 2, 3 or 5 of them, hold one copy of each built-in after sync", arguments: [2, 3, 5])
    func offlinePeersConverge(count: Int) throws {
        let peers = try SyncPeers(Array(["A", "B", "C", "D", "E"].prefix(count)))
        defer { peers.directory.remove() }
        for name in peers.names {
            let report = try seed(peers, name, Self.builtinTypes)
            #expect((report["inserted"] as? [String])?.count == 5, "\(report)")
        }
        // A second run does nothing and says so.
        let again = try seed(peers, "A", Self.builtinTypes)
        #expect(again["alreadySeeded"] as? Bool == true)
        #expect(again["sequence"] == nil, "nothing was saved")
        #expect((again["inserted"] as? [String])?.isEmpty ?? true)

        // Syncs in a random (seeded) order, then until quiet.
        var random = SeededRandom(seed: UInt64(count))
        for _ in 0..<(2 * count) {
            #expect(try peers.sync(peers.names[Int.random(in: 0..<count, using: &random)]).status == 0)
        }
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        for name in peers.names {
            let names = try typeNames(peers, name)
            #expect(names.count == 5 && names.values.allSatisfy { $0 == 1 }, "\(name): \(names)")
            let check = try StorekeepProcess.run(["check", peers.store(name), "--json"])
            #expect(!check.stdout.contains("seed.duplicate"), "\(name): \(check.stdout)")
        }
    }

    @Test("a newer seed version keeps the user's edit, leaves the deleted one deleted, adds its new record once")
    func newerVersionRespectsTheUser() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        for name in peers.names { _ = try seed(peers, name, Self.builtinTypes) }
        #expect(try peers.syncUntilQuiet() <= 4)

        // The user edits one built-in on A and deletes another on B.
        let edit = #"{"op":"update","record":{"entity":"SpeechType","key":{"name":"Icebreaker"}},"values":{"greenSeconds":200}}"#
        #expect(try peers.apply("A", [edit]).status == 0)
        let delete = #"{"op":"delete","record":{"entity":"SpeechType","key":{"name":"Evaluation"}}}"#
        #expect(try peers.apply("B", [delete]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 4)

        // Version 2 changes both, changes an untouched one, and adds one. C seeds it (offline), then A.
        let version2 = try peers.builtinTypesVersion2()
        let onC = try seed(peers, "C", version2)
        #expect((onC["inserted"] as? [String])?.count == 1, "\(onC)")
        #expect((onC["keptEdited"] as? [String])?.count == 1, "\(onC)")
        #expect((onC["skippedDeleted"] as? [String])?.count == 1, "\(onC)")
        let onA = try seed(peers, "A", version2)
        #expect((onA["inserted"] as? [String])?.count == 1, "\(onA)")
        #expect(try peers.syncUntilQuiet() <= 4)

        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        for name in peers.names {
            let names = try typeNames(peers, name)
            #expect(names == ["Table Topics": 1, "Icebreaker": 1, "Standard Speech": 1, "Humorous Speech": 1, "Panel": 1], "\(name): \(names)")
            #expect(try peers.types(name, named: "Icebreaker").first?.values["greenSeconds"] == .double(200), "the user's edit survives on \(name)")
            #expect(try peers.types(name, named: "Table Topics").first?.values["greenSeconds"] == .double(70), "an untouched built-in is refreshed on \(name)")
        }
    }

    @Test("a new device seeding offline after the user deleted a built-in on another: after sync it stays deleted everywhere")
    func deletedBeforeANewDeviceSeeds() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        _ = try seed(peers, "A", Self.builtinTypes)
        let delete = #"{"op":"delete","record":{"entity":"SpeechType","key":{"name":"Evaluation"}}}"#
        #expect(try peers.apply("A", [delete]).status == 0)
        #expect(try peers.sync("A").status == 0)
        // B never saw the delete: it seeds all five.
        #expect((try seed(peers, "B", Self.builtinTypes)["inserted"] as? [String])?.count == 5)
        #expect(try peers.syncUntilQuiet() <= 4)
        for name in peers.names {
            let names = try typeNames(peers, name)
            #expect(names == ["Table Topics": 1, "Icebreaker": 1, "Standard Speech": 1, "Humorous Speech": 1], "\(name): \(names)")
        }
        #expect(try peers.digest("A") == (try peers.digest("B")))
    }

    @Test("--dry-run says what it would seed and leaves the file as it was, even a store of an older format")
    func dryRunWritesNothing() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        // The store as format 2 left it (before insert runs): a writable open would upgrade it in place.
        try DatabaseQueue(path: peers.store("A")).write { db in
            for table in ["e_Speech", "e_SpeechType", "e_Settings"] { try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN _insert_run") }
            try db.execute(sql: "DROP TABLE sk_insert_run; UPDATE sk_metadata SET value = '2' WHERE key = 'formatVersion'")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: peers.store("A")))
        let plan = try peers.seed("A", Self.builtinTypes, ["--dry-run"])
        #expect(plan["dryRun"] as? Bool == true && (plan["inserted"] as? [String])?.count == 5, "\(plan)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: peers.store("A"))) == before, "the file is byte for byte the same")
        #expect(try SyncStore.open(at: peers.store("A"), readOnly: true).metadata.formatVersion == 2)
    }

    @Test("a malformed seed set names its line and exits 65; the store is unchanged")
    func malformedSeedSet() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        let before = try peers.digest("A")
        let bad = try peers.directory.write("seedSet: x\nversion: 1\nrecords:\n  - entity: SpeechType\n    colour: red\n", to: "bad.seed.yaml")
        let result = try StorekeepProcess.run(["seed", peers.store("A"), "--from", bad])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("bad.seed.yaml:5"), "\(result.stderr)")
        #expect(result.stderr.contains("colour"), "\(result.stderr)")
        #expect(try peers.digest("A") == before)
    }
}
