import Foundation
import ObjectModel
import SyncStore
import Testing

/// `seed` through the real binary (article 1): peers that seed offline end up with one copy of each
/// built-in record; a newer version of the set never overwrites the user's edits nor brings back
/// what the user deleted; seeding twice does nothing.
@Suite("seed: once per peer per account")
struct SeedingTests {
    static var builtinTypes: String {
        StorekeepProcess.packageRoot.appendingPathComponent("Migrations/SpeechTimer/speechtimer-builtin-types.seed.yaml").path
    }

    /// The names of the live SpeechType records of a peer, with how many records carry each.
    private func typeNames(_ peers: SyncPeers, _ name: String) throws -> [String: Int] {
        let store = try SyncStore.open(at: peers.store(name), readOnly: true)
        var names: [String: Int] = [:]
        for id in try store.globalIDs(of: "SpeechType") {
            guard let record = try store.record(id), case .string(let text)? = record.values["name"] else { continue }
            names[text, default: 0] += 1
        }
        return names
    }

    /// The values of the SpeechType named `name` on a peer.
    private func type(_ peers: SyncPeers, _ peer: String, named name: String) throws -> Record? {
        let store = try SyncStore.open(at: peers.store(peer), readOnly: true)
        for id in try store.globalIDs(of: "SpeechType") {
            if let record = try store.record(id), record.values["name"] == .string(name) { return record }
        }
        return nil
    }

    private func seed(_ peers: SyncPeers, _ peer: String, _ set: String) throws -> [String: Any] {
        let result = try StorekeepProcess.run(["seed", peers.store(peer), "--from", set, "--json"])
        try #require(result.status == 0, "\(result)")
        return try result.jsonObject()
    }

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
        var text = try String(contentsOfFile: Self.builtinTypes, encoding: .utf8)
        text = text.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "name: Icebreaker, greenSeconds: 240", with: "name: Icebreaker, greenSeconds: 250")
            .replacingOccurrences(of: "name: Evaluation, greenSeconds: 120", with: "name: Evaluation, greenSeconds: 130")
            .replacingOccurrences(of: "name: Table Topics, greenSeconds: 60", with: "name: Table Topics, greenSeconds: 70")
        text += "  - entity: SpeechType\n    values: {name: Panel, greenSeconds: 600, yellowSeconds: 660, redSeconds: 720}\n"
        let version2 = try peers.directory.write(text, to: "builtin-v2.seed.yaml")
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
            #expect(try type(peers, name, named: "Icebreaker")?.values["greenSeconds"] == .double(200), "the user's edit survives on \(name)")
            #expect(try type(peers, name, named: "Table Topics")?.values["greenSeconds"] == .double(70), "an untouched built-in is refreshed on \(name)")
        }
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
