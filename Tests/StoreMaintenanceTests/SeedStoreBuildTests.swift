import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Seed stores built beside a user's store (the Postcodes example of `Migrations/`), checked and
/// replaced, at the library level.
@Suite struct SeedStoreBuildTests {
    let folder: URL
    let model: ManagedModel
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        model = try XcodeModelReader().readModel(at: Self.packageRoot.appendingPathComponent("Migrations/Postcodes/Postcodes.xcdatamodeld")).current
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The shipped seed set, at `version`, without the postcodes named in `dropping`.
    private func seedSet(version: Int = 1, dropping: [String] = []) throws -> SeedSet {
        var text = try String(contentsOf: Self.packageRoot.appendingPathComponent("Migrations/Postcodes/postcodes.seed.yaml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "version: 1", with: "version: \(version)")
        for postcode in dropping {
            var lines = text.components(separatedBy: "\n")
            if let index = lines.firstIndex(where: { $0.contains("postcode: \(postcode),") }) {
                lines.removeSubrange((index - 1)...(index + 1))
            }
            text = lines.joined(separator: "\n")
        }
        let file = path("postcodes-\(version)-\(UUID().uuidString).seed.yaml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return try SeedSet(path: file)
    }

    /// A user's store with a Rating pointing at each of `postcodes` (by the derived global ID).
    private func userStore(rating postcodes: [String]) throws -> SyncStore {
        let store = try SyncStore.create(at: path("r.store"), model: model, contentName: "Ratings")
        try store.save(author: "app") { tx in
            for (index, code) in postcodes.enumerated() {
                let target = store.seedGlobalID(entity: "Postcode", values: ["postcode": .string(code)])
                _ = try tx.insert("Rating", id: GlobalID("R\(index)"), values: ["postcode": .string(target.rawValue), "rating": .integer(4)])
            }
        }
        return store
    }

    private func findings(_ store: String, _ code: CheckCode) -> [CheckFinding] {
        StoreChecker().check(storeAt: store).findings.filter { $0.code == code }
    }

    @Test("built from a seed set: derived IDs, relationships by seed key, one self-contained file; the same version again is nothing to do")
    func buildFromSeedSet() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: ["TR1 2AB"])
        #expect(findings(user.path, .seedStoreMissing).count == 1, "before the build, the seed store is missing")
        let report = try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet())).run()
        #expect(report.installed && report.records == ["County": 3, "Postcode": 5], "\(report)")
        #expect(report.danglingReferenceCount == 0)
        let seed = try user.seedStore(for: "Postcodes")
        let truro = seed.seedGlobalID(entity: "Postcode", values: ["postcode": .string("TR1 2AB")])
        let cornwall = seed.seedGlobalID(entity: "County", values: ["name": .string("Cornwall")])
        #expect(try seed.record(truro)?.toOne["county"] == cornwall)
        #expect(try seed.record(truro)?.seed == SeedMark(set: "uk.postcodes", version: 1))
        #expect(!FileManager.default.fileExists(atPath: seed.path + "-wal") && !FileManager.default.fileExists(atPath: seed.path + "-shm"),
                "a rollback-journal file: reading it creates nothing beside it")
        #expect(StoreChecker().check(storeAt: user.path).findings.isEmpty, "\(StoreChecker().check(storeAt: user.path).findings)")
        #expect(StoreChecker().check(storeAt: seed.path).findings.isEmpty, "\(StoreChecker().check(storeAt: seed.path).findings)")
        let again = try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet())).run()
        #expect(again.nothingToDo && !again.installed)
    }

    @Test("a newer seed store lacking a record: the build lists the user record it leaves dangling, check reports it, repair leaves it")
    func replacementLeavesADanglingReference() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: ["TR1 2AB", "CT1 1AA"])
        _ = try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet())).run()
        let seedPath = user.seedStorePath(for: "Postcodes")
        let before = try Data(contentsOf: URL(fileURLWithPath: seedPath))
        let old = try user.seedStore(for: "Postcodes")   // open before the replacement

        let plan = try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet(version: 2, dropping: ["TR1 2AB"])), dryRun: true).run()
        #expect(plan.danglingReferences.map(\.globalID) == ["R0"] && plan.danglingReferenceCount == 1, "\(plan)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: seedPath)) == before, "a dry run installs nothing")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("building") }.isEmpty)

        let report = try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet(version: 2, dropping: ["TR1 2AB"]))).run()
        #expect(report.installed && report.previousVersion == 1 && report.records["Postcode"] == 4)
        #expect(report.danglingReferences.first?.target == user.seedGlobalID(entity: "Postcode", values: ["postcode": .string("TR1 2AB")]).rawValue)
        let dangling = findings(user.path, .seedStoreDanglingReference)
        #expect(dangling.count == 1 && dangling.first?.globalIDs == ["R0"] && dangling.first?.property == "postcode", "\(dangling)")
        #expect(dangling.first?.targetEntity == "Postcode" && dangling.first?.message.contains("version 2") == true)

        // The handle opened before still reads the old seed store; a new one reads the new.
        let truro = user.seedGlobalID(entity: "Postcode", values: ["postcode": .string("TR1 2AB")])
        #expect(try old.record(truro) != nil)
        #expect(try user.seedStore(for: "Postcodes").record(truro) == nil)

        let repair = try StoreRepairer(path: user.path, options: RepairOptions(backup: false)).run()
        #expect(repair.plan.fixes.isEmpty)
        #expect(repair.plan.leftovers.contains { $0.code == .seedStoreDanglingReference && $0.globalIDs == ["R0"] })
        #expect(try user.record(GlobalID("R0"))?.values["postcode"] == .string(truro.rawValue), "repair never changes the reference")

        // The replaced seed store was kept one version back; putting it back makes the reference whole.
        let previous = try #require(report.previous)
        #expect(try Data(contentsOf: URL(fileURLWithPath: previous)) == before)
        let restored = try SeedStoreBuilder(path: user.path, source: .sqlite(previous)).run()
        #expect(restored.installed && restored.version == 1)
        #expect(findings(user.path, .seedStoreDanglingReference).isEmpty)
    }

    @Test("a seed store of another configuration or other seed entities is a mismatch; a copy of a seed store is installed as built")
    func mismatchAndCopy() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: ["LA9 4DL"])
        let seedPath = user.seedStorePath(for: "Postcodes")
        // A user's store where the seed store belongs.
        try FileManager.default.copyItem(atPath: user.path, toPath: seedPath)
        #expect(findings(user.path, .seedStoreMismatch).first?.message.contains("not a seed store") == true)
        try FileManager.default.removeItem(atPath: seedPath)

        // Built elsewhere (another user's store of the same model), then copied in.
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let other = try SyncStore.create(at: elsewhere.appendingPathComponent("o.store").path, model: model, contentName: "Other")
        _ = try SeedStoreBuilder(path: other.path, source: .seedSet(try seedSet())).run()
        let copied = try SeedStoreBuilder(path: user.path, source: .sqlite(other.seedStorePath(for: "Postcodes"))).run()
        #expect(copied.installed && copied.source == "sqlite" && copied.seedSet == "uk.postcodes" && copied.records["County"] == 3)
        #expect(StoreChecker().check(storeAt: user.path).findings.isEmpty)
        #expect(try SeedStoreBuilder(path: user.path, source: .seedSet(try seedSet())).run().nothingToDo, "the same seed set as the copy")

        // A user's store given as the file to copy: refused, nothing installed.
        #expect {
            try SeedStoreBuilder(path: user.path, source: .sqlite(other.path)).run()
        } throws: { error in "\(error)".contains("not a seed store") }
    }

    @Test("a seed set naming a user entity, or a to-one target it lacks, is refused with its line; nothing is installed")
    func badSeedSets() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: [])
        let bad = path("bad.seed.yaml")
        try "seedSet: x\nversion: 1\nrecords:\n  - entity: Rating\n    values: {postcode: A, rating: 1}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect { try SeedStoreBuilder(path: user.path, source: .seedSet(try SeedSet(path: bad))).run() } throws: { error in
            "\(error)".contains("bad.seed.yaml:4") && "\(error)".contains("not seed data")
        }
        try "seedSet: x\nversion: 1\nrecords:\n  - entity: Postcode\n    values: {postcode: A, town: B}\n    toOne: {county: {name: Nowhere}}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect { try SeedStoreBuilder(path: user.path, source: .seedSet(try SeedSet(path: bad))).run() } throws: { error in
            "\(error)".contains("bad.seed.yaml:4") && "\(error)".contains("not a record of the seed set")
        }
        #expect(!FileManager.default.fileExists(atPath: user.seedStorePath(for: "Postcodes")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("building") }.isEmpty)
    }

    /// The app's Core Data store of configuration Postcodes (the user's model, as Core Data lays it
    /// out), holding `postcodes` (postcode, town, county name) and their counties.
    private func coreDataStore(_ postcodes: [(String?, String, String)], name: String = "Postcodes.sqlite") throws -> String {
        var rows: [CoreDataStoreWriter.Row] = []
        var counties: [String: Int64] = [:]
        for (_, _, county) in postcodes where counties[county] == nil {
            counties[county] = Int64(counties.count + 1)
            rows.append(CoreDataStoreWriter.Row(entity: "County", key: Int64(counties.count), values: ["name": county, "region": "somewhere"]))
        }
        for (index, (postcode, town, county)) in postcodes.enumerated() {
            rows.append(CoreDataStoreWriter.Row(entity: "Postcode", key: Int64(index + 1), values: ["postcode": postcode, "town": town, "latitude": 50.5],
                                                toOne: ["county": counties[county] ?? 0]))
        }
        let file = path(name)
        try CoreDataStoreWriter(model: model).write(to: file, rows: rows)
        return file
    }

    @Test("built from the app's Core Data store: each record gets the ID its seed key derives, Z_PK references become those IDs")
    func buildFromCoreData() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: ["TR1 2AB"])
        let file = try coreDataStore([("TR1 2AB", "Truro", "Cornwall"), ("CT1 1AA", "Canterbury", "Kent"), ("LA9 4DL", "Kendal", "Cumbria")])
        let report = try SeedStoreBuilder(path: user.path, source: .sqlite(file)).run()
        #expect(report.installed && report.source == "coreData" && report.seedSet == "Postcodes" && report.version == 1, "\(report)")
        #expect(report.records == ["County": 3, "Postcode": 3] && report.danglingReferenceCount == 0, "\(report)")
        let seed = try user.seedStore(for: "Postcodes")
        let truro = seed.seedGlobalID(entity: "Postcode", values: ["postcode": .string("TR1 2AB")])
        let cornwall = seed.seedGlobalID(entity: "County", values: ["name": .string("Cornwall")])
        let record = try #require(try seed.record(truro))
        #expect(record.toOne["county"] == cornwall, "the Z_PK of the county became its derived ID")
        #expect(record.values["town"] == .string("Truro") && record.values["latitude"] == .double(50.5))
        #expect(record.seed == SeedMark(set: "Postcodes", version: 1))
        #expect(try seed.related("postcodes", of: cornwall) == [truro])
        #expect(StoreChecker().check(storeAt: user.path).findings.isEmpty, "\(StoreChecker().check(storeAt: user.path).findings)")
        #expect(StoreChecker().check(storeAt: seed.path).findings.isEmpty, "\(StoreChecker().check(storeAt: seed.path).findings)")

        // The same IDs as a seed store built from the seed set: a user record points at the same record either way.
        let bySet = try SyncStore.create(at: path("s.store"), model: model, contentName: "Ratings")
        _ = try SeedStoreBuilder(path: bySet.path, source: .seedSet(try seedSet())).run()
        #expect(try bySet.seedStore(for: "Postcodes").record(truro)?.toOne["county"] == cornwall)
        #expect(try SeedStoreBuilder(path: user.path, source: .sqlite(file)).run().nothingToDo, "the same file again")
    }

    @Test("a Core Data record lacking its seed key, or two with one key, is refused naming it; nothing is installed")
    func coreDataRecordsWithoutTheirKey() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try userStore(rating: [])
        let missing = try coreDataStore([("TR1 2AB", "Truro", "Cornwall"), (nil, "Nowhere", "Kent")], name: "Missing.sqlite")
        #expect { try SeedStoreBuilder(path: user.path, source: .sqlite(missing)).run() } throws: { error in
            let text = "\(error)"
            return text.contains(missing) && text.contains("Postcode record Z_PK 2") && text.contains("no value for its seed key postcode")
        }
        let twice = try coreDataStore([("TR1 2AB", "Truro", "Cornwall"), ("TR1 2AB", "Truro again", "Cornwall")], name: "Twice.sqlite")
        #expect { try SeedStoreBuilder(path: user.path, source: .sqlite(twice)).run() } throws: { error in
            "\(error)".contains("Postcode record Z_PK 2 has the same seed key as Postcode record Z_PK 1")
        }
        #expect(!FileManager.default.fileExists(atPath: user.seedStorePath(for: "Postcodes")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("building") }.isEmpty)
    }
}
