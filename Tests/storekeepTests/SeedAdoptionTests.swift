import Foundation
import ObjectModel
import SyncStore
import Testing

/// `seed` on stores an older app seeded with random IDs (article 1), through the real binary: the
/// records it adopts merge with the derived records other peers seed, so every peer ends with one
/// record per seed key; an edited legacy record is the user's and survives.
@Suite("seed: adopting an older app's seeds")
struct SeedAdoptionTests {
    /// A SpeechType insert with a fixed ID, optionally with an old seed mark.
    private func legacyType(_ id: String, _ name: String, green: Int, seed: String? = nil) -> String {
        let mark = seed.map { #","seed":{"set":"\#($0)","version":1}"# } ?? ""
        return #"{"op":"insert","entity":"SpeechType","id":"\#(id)","values":{"name":"\#(name)","greenSeconds":\#(green),"yellowSeconds":90,"redSeconds":120}\#(mark)}"#
    }

    @Test("a legacy record adopted on one peer and the derived record seeded on another merge into one")
    func adoptedAndDerivedMerge() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        // An older app seeded Table Topics on A with a random ID and no seed mark.
        #expect(try peers.apply("A", [legacyType("legacy-tt", "Table Topics", green: 55)]).status == 0)
        let onA = try peers.seed("A", SyncPeers.builtinTypes)
        #expect(onA["adopted"] as? [String] == ["legacy-tt"], "\(onA)")
        #expect((onA["inserted"] as? [String])?.count == 4, "\(onA)")
        let adopted = try #require(try peers.types("A", named: "Table Topics").first)
        #expect(adopted.seed == SeedMark(set: "speechtimer.builtin-types", version: 1), "the adopted record is marked as seed data")
        #expect(adopted.values["greenSeconds"] == .double(60), "untouched by the user, it is refreshed to the set's values")
        _ = try peers.seed("B", SyncPeers.builtinTypes)

        #expect(try peers.syncUntilQuiet() <= 4)
        for name in peers.names {
            let names = try peers.typeNames(name)
            #expect(names == ["Table Topics": 1, "Icebreaker": 1, "Standard Speech": 1, "Evaluation": 1, "Humorous Speech": 1], "\(name): \(names)")
            let check = try StorekeepProcess.run(["check", peers.store(name), "--json"])
            #expect(check.status == 0, "\(name): \(check.stdout)")
        }
        #expect(try peers.digest("A") == (try peers.digest("B")))
    }

    @Test("legacy duplicates, an old seed mark and a user's edit, seeded and synced with fresh peers, then a version 2")
    func legacyStoreConvergesAcrossVersions() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        // A's store was seeded by an older app: Table Topics twice (two devices, synced), Icebreaker
        // with the old app's seed mark, Evaluation that the user then edited. "000000-…" sorts before
        // every derived ID (so de-duplication keeps the legacy record), "zz-…" after (it keeps the derived one).
        let legacy = [
            legacyType("000000-legacy-tt", "Table Topics", green: 55),
            legacyType("zz-legacy-tt2", "Table Topics", green: 55),
            legacyType("zz-legacy-ice", "Icebreaker", green: 240, seed: "oldapp"),
            legacyType("zz-legacy-eval", "Evaluation", green: 120),
        ]
        #expect(try peers.apply("A", legacy).status == 0)
        let edit = #"{"op":"update","record":"zz-legacy-eval","values":{"greenSeconds":99}}"#
        #expect(try peers.apply("A", [edit]).status == 0)

        let onA = try peers.seed("A", SyncPeers.builtinTypes)
        #expect(Set(onA["adopted"] as? [String] ?? []) == ["000000-legacy-tt", "zz-legacy-tt2", "zz-legacy-ice", "zz-legacy-eval"], "\(onA)")
        #expect(onA["keptEdited"] as? [String] == ["zz-legacy-eval"], "\(onA)")
        #expect((onA["inserted"] as? [String])?.count == 2, "\(onA)")
        #expect((onA["duplicates"] as? [[String]])?.count == 1, "Table Topics is there twice: \(onA)")
        let editedOnA = try #require(try peers.types("A", named: "Evaluation").first)
        #expect(editedOnA.values["greenSeconds"] == .double(99), "an edited record keeps the user's values")
        #expect(editedOnA.seed?.set == "speechtimer.builtin-types", "and is marked, so de-duplication sees it")
        for name in ["B", "C"] { _ = try peers.seed(name, SyncPeers.builtinTypes) }

        var random = SeededRandom(seed: 23)
        for _ in 0..<6 { #expect(try peers.sync(peers.names[Int.random(in: 0..<3, using: &random)]).status == 0) }
        #expect(try peers.syncUntilQuiet() <= 4)
        for name in peers.names {
            // One record per key, except Evaluation: the user's edited copy stays beside the built-in.
            let names = try peers.typeNames(name)
            #expect(names == ["Table Topics": 1, "Icebreaker": 1, "Standard Speech": 1, "Evaluation": 2, "Humorous Speech": 1], "\(name): \(names)")
            #expect(try peers.types(name, named: "Table Topics").map(\.globalID.rawValue) == ["000000-legacy-tt"], "the same keeper on \(name)")
            #expect(try peers.types(name, named: "Evaluation").contains { $0.globalID.rawValue == "zz-legacy-eval" && $0.values["greenSeconds"] == .double(99) },
                    "the user's edit survives on \(name)")
            // The edited duplicate is reported, and repair leaves it.
            let check = try StorekeepProcess.run(["check", peers.store(name), "--json"])
            let stores = try check.jsonObject()["stores"] as? [[String: Any]] ?? []
            let findings = (stores.first?["findings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "seed.duplicate" }
            #expect(findings.count == 1 && (findings.first?["globalIDs"] as? [String])?.contains("zz-legacy-eval") == true, "\(name): \(check.stdout)")
        }
        #expect(Set(try peers.names.map { try peers.digest($0) }).count == 1)

        // Version 2: C seeds it offline, then A. The merged-away copies' tombstones carry the
        // keys, yet the records kept are refreshed (a live record carries the key: nobody deleted it).
        let version2 = try peers.builtinTypesVersion2()
        let onC = try peers.seed("C", version2)
        #expect((onC["inserted"] as? [String])?.count == 1, "Panel: \(onC)")
        #expect((onC["skippedDeleted"] as? [String] ?? []).isEmpty, "\(onC)")
        #expect((onC["keptEdited"] as? [String]) == ["zz-legacy-eval"], "\(onC)")
        _ = try peers.seed("A", version2)
        #expect(try peers.syncUntilQuiet() <= 4)
        for name in peers.names {
            let names = try peers.typeNames(name)
            #expect(names == ["Table Topics": 1, "Icebreaker": 1, "Standard Speech": 1, "Evaluation": 2, "Humorous Speech": 1, "Panel": 1], "\(name): \(names)")
            #expect(try peers.types(name, named: "Table Topics").first?.values["greenSeconds"] == .double(70), "the kept legacy record is refreshed on \(name)")
            #expect(try peers.types(name, named: "Icebreaker").first?.values["greenSeconds"] == .double(250), "on \(name)")
            let evaluations = try peers.types(name, named: "Evaluation")
            #expect(Set(evaluations.compactMap { $0.values["greenSeconds"] }) == [.double(130), .double(99)],
                    "the built-in is refreshed, the user's copy is not, on \(name): \(evaluations)")
        }
        #expect(Set(try peers.names.map { try peers.digest($0) }).count == 1)
    }
}
