import Foundation
import SyncStore
import Testing

/// `storekeep seed-store build` through the real binary (article 4), on the Postcodes example of
/// `Migrations/`: a seed store attached beside the user's store, checked, replaced by a newer one,
/// never synced or written by the app's writes, and replaced whole even when the build is killed.
@Suite("seed-store build")
struct SeedStoreCommandTests {
    static var model: String { StorekeepProcess.packageRoot.appendingPathComponent("Migrations/Postcodes/Postcodes.xcdatamodeld").path }
    static var seedSet: String { StorekeepProcess.packageRoot.appendingPathComponent("Migrations/Postcodes/postcodes.seed.yaml").path }

    /// A folder with user stores of the Postcodes model (peer IDs as named) and a container.
    struct Workspace {
        let directory: TemporaryDirectory
        init(_ peers: [String] = ["A"]) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
            for peer in peers {
                let result = try StorekeepProcess.run(["init", store(peer), "--model", SeedStoreCommandTests.model, "--content-name", "Ratings", "--peer-id", peer])
                guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "\(result)") }
            }
        }
        func store(_ peer: String) -> String { directory.url.appendingPathComponent("\(peer).store").path }
        func seedStore(_ peer: String) -> String { store(peer) + ".seed-Postcodes" }
        var container: String { directory.url.appendingPathComponent("container").path }

        /// The shipped seed set at `version`, without Truro's postcode when `droppingTruro`.
        func seedSet(version: Int, droppingTruro: Bool = false) throws -> String {
            var text = try String(contentsOfFile: SeedStoreCommandTests.seedSet, encoding: .utf8).replacingOccurrences(of: "version: 1", with: "version: \(version)")
            if droppingTruro {
                text = text.replacingOccurrences(of: "  - entity: Postcode\n    values: {postcode: TR1 2AB, town: Truro, latitude: 50.2632, longitude: -5.0510}\n    toOne: {county: {name: Cornwall}}\n", with: "")
            }
            return try directory.write(text, to: "postcodes-\(version)-\(droppingTruro).seed.yaml")
        }

        func build(_ peer: String, _ extra: [String]) throws -> ProcessResult {
            try StorekeepProcess.run(["seed-store", "build", store(peer)] + extra + ["--json"])
        }

        /// Rates Truro's postcode (by its derived global ID, read from the seed store) on `peer`.
        func rateTruro(_ peer: String, id: String) throws -> ProcessResult {
            let seed = try SyncStore.open(at: seedStore(peer), readOnly: true)
            let truro = seed.seedGlobalID(entity: "Postcode", values: ["postcode": .string("TR1 2AB")])
            let line = #"{"op":"insert","entity":"Rating","id":"\#(id)","values":{"postcode":"\#(truro.rawValue)","rating":5}}"#
            let file = try directory.write(line + "\n", to: "\(id).jsonl")
            return try StorekeepProcess.run(["apply", store(peer), file])
        }

        func check(_ peer: String) throws -> ProcessResult { try StorekeepProcess.run(["check", store(peer), "--json"]) }
    }

    private func sha256(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("build, check, build again (nothing to do), info; the app's writes and seed refuse seed data; sync refuses the seed store")
    func buildAndAttach() throws {
        let work = try Workspace()
        defer { work.directory.remove() }
        let missing = try work.check("A")
        #expect(missing.status == 2 && missing.stdout.contains("seedStore.missing"), "\(missing.stdout)")

        let built = try work.build("A", ["--from", Self.seedSet])
        #expect(built.status == 0, "\(built)")
        #expect(try built.jsonObject()["records"] as? [String: Int] == ["County": 3, "Postcode": 5])
        #expect(try work.rateTruro("A", id: "R1").status == 0)
        let checked = try work.check("A")
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(try StorekeepProcess.run(["check", work.seedStore("A")]).status == 0)
        let bytes = try sha256(work.seedStore("A"))
        let again = try work.build("A", ["--from", Self.seedSet])
        #expect(try again.jsonObject()["nothingToDo"] as? Bool == true, "\(again)")
        let info = try StorekeepProcess.run(["info", work.store("A"), "--json"])
        let seedStores = try info.jsonObject()["seedStores"] as? [[String: Any]]
        #expect(seedStores?.first?["state"] as? String == "installed" && seedStores?.first?["version"] as? Int == 1, "\(info.stdout)")
        #expect(try sha256(work.seedStore("A")) == bytes, "reading, checking and building again never write the seed store")
        for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: work.seedStore("A") + suffix)) }

        let insert = try work.directory.write(#"{"op":"insert","entity":"Postcode","values":{"postcode":"X1","town":"Y"}}"# + "\n", to: "postcode.jsonl")
        let refused = try StorekeepProcess.run(["apply", work.store("A"), insert])
        #expect(refused.status == 65 && refused.stderr.contains("read-only seed data of configuration Postcodes"), "\(refused)")
        let seeded = try StorekeepProcess.run(["seed", work.store("A"), "--from", Self.seedSet])
        #expect(seeded.status == 65 && seeded.stderr.contains("seed-store build"), "\(seeded)")
        let synced = try StorekeepProcess.run(["sync", work.seedStore("A"), "--container", work.container])
        #expect(synced.status == 65 && synced.stderr.contains("never synced"), "\(synced)")
        #expect(try sha256(work.seedStore("A")) == bytes)
    }

    @Test("a newer seed store lacking a record: the dry run lists the rating it would leave dangling; once built, check reports it")
    func replaceAndCheck() throws {
        let work = try Workspace()
        defer { work.directory.remove() }
        #expect(try work.build("A", ["--from", Self.seedSet]).status == 0)
        #expect(try work.rateTruro("A", id: "R1").status == 0)
        let version2 = try work.seedSet(version: 2, droppingTruro: true)
        let bytes = try sha256(work.seedStore("A"))
        let plan = try work.build("A", ["--from", version2, "--dry-run"])
        #expect(plan.status == 0, "\(plan)")
        let listed = try plan.jsonObject()["danglingReferences"] as? [[String: Any]]
        #expect(listed?.map { $0["globalID"] as? String } == ["R1"], "\(plan.stdout)")
        #expect(try sha256(work.seedStore("A")) == bytes, "a dry run installs nothing")
        let text = try StorekeepProcess.run(["seed-store", "build", work.store("A"), "--from", version2, "--dry-run"])
        #expect(text.stdout.contains("Rating R1.postcode") && text.stdout.contains("would lack"), "\(text.stdout)")

        #expect(try work.build("A", ["--from", version2]).status == 0)
        let check = try work.check("A")
        #expect(check.status == 2 && check.stdout.contains("seedStore.danglingReference") && check.stdout.contains("R1"), "\(check.stdout)")
        // Version 1 again (a restore): the reference is whole again.
        #expect(try work.build("A", ["--from", try work.seedSet(version: 3)]).status == 0)
        #expect(try work.check("A").status == 0)
    }

    @Test("peers with seed stores of different versions sync their ratings; seed data never travels")
    func peersSyncUserRecordsOnly() throws {
        let work = try Workspace(["A", "B"])
        defer { work.directory.remove() }
        #expect(try work.build("A", ["--from", Self.seedSet]).status == 0)
        #expect(try work.build("B", ["--from", try work.seedSet(version: 2, droppingTruro: true)]).status == 0)
        #expect(try work.rateTruro("A", id: "R1").status == 0)
        for peer in ["A", "B", "A"] {
            let result = try StorekeepProcess.run(["sync", work.store(peer), "--container", work.container])
            #expect(result.status == 0, "\(result)")
        }
        let digest = { (peer: String) in try StorekeepProcess.run(["digest", work.store(peer), "--json"]).jsonObject()["digest"] as? String }
        #expect(try digest("A") == digest("B"), "the user data is the same; the seed stores differ")
        let onB = try SyncStore.open(at: work.store("B"), readOnly: true)
        #expect(try onB.record(GlobalID("R1")) != nil)
        #expect(try onB.liveRecordCounts()["Postcode"] == 0, "no seed record came through the container")
        #expect(try SyncStore.open(at: work.seedStore("B"), readOnly: true).liveRecordCounts()["Postcode"] == 4, "B's own seed store is as built")
        #expect(try work.check("A").status == 0)
        let onBCheck = try work.check("B")
        #expect(onBCheck.status == 2 && onBCheck.stdout.contains("seedStore.danglingReference"), "B's seed store lacks Truro: \(onBCheck.stdout)")
    }

    @Test("a build killed at each of its steps, or at random moments, leaves the old seed store or the new one, whole; the next run finishes")
    func killedBuilds() throws {
        let work = try Workspace()
        defer { work.directory.remove() }
        #expect(try work.build("A", ["--from", Self.seedSet]).status == 0)
        var random = SeededRandom(seed: 4)
        // Crash points: the new seed store built and checked; installed. Then random moments.
        for attempt in 1...6 {
            let old = try sha256(work.seedStore("A"))
            let version = 10 + attempt
            let arguments = ["seed-store", "build", work.store("A"), "--from", try work.seedSet(version: version, droppingTruro: true)]
            if attempt <= 2 {
                let killed = try StorekeepProcess.run(arguments, environment: ["STOREKEEP_CRASH_AFTER": String(attempt)])
                #expect(killed.status == SIGKILL, "point \(attempt): \(killed)")
            } else {
                _ = try StorekeepProcess.runAndKill(arguments, after: Double.random(in: 0.02...0.25, using: &random))
            }
            let installed = try SyncStore.open(at: work.seedStore("A"), readOnly: true).seedStoreFacts()["seedVersion"]
            let bytes = try sha256(work.seedStore("A"))
            #expect(bytes == old || installed == String(version), "attempt \(attempt): neither the old seed store nor the new one (version \(installed ?? "?"))")
            // Whole: no violation (the killed build's lock is left behind: a warning the next run clears).
            #expect(try StorekeepProcess.run(["check", work.seedStore("A")]).status <= 1, "attempt \(attempt): the seed store in place is whole")
            let rerun = try StorekeepProcess.run(arguments + ["--json"])
            #expect(rerun.status == 0, "attempt \(attempt): \(rerun)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.directory.url.path).filter { $0.contains("building") }
            #expect(leftovers.isEmpty, "attempt \(attempt): \(leftovers)")
            #expect(try SyncStore.open(at: work.seedStore("A"), readOnly: true).seedStoreFacts()["seedVersion"] == String(version))
            #expect(try StorekeepProcess.run(["check", work.seedStore("A")]).status == 0, "attempt \(attempt)")
        }
    }

    @Test("a model without a seed configuration, a missing seed set and two sources are refused with their exit codes")
    func refusals() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        let none = try StorekeepProcess.run(["seed-store", "build", peers.store("A"), "--from", Self.seedSet])
        #expect(none.status == 65 && none.stderr.contains("no seed configuration"), "\(none)")
        let work = try Workspace()
        defer { work.directory.remove() }
        #expect(try StorekeepProcess.run(["seed-store", "build", work.store("A"), "--from", "/nonexistent.seed.yaml"]).status == 66)
        #expect(try StorekeepProcess.run(["seed-store", "build", work.store("A"), "--from", Self.seedSet, "--from-sqlite", work.store("A")]).status == 64)
        #expect(try StorekeepProcess.run(["seed-store", "build", work.store("A")]).status == 64)
    }
}
