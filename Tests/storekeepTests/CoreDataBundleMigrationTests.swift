import Foundation
import ObjectModel
import SyncStore
import Testing

/// End-to-end tests of `storekeep migrate CORE_DATA_STORE --model BUNDLE` on the corpus stores made
/// with corpus bundles, through the built binary: the store's version found by Core Data's hashes,
/// one step to the current version, the two-step path, mapping models, and stores that fit no
/// version or several. The sources are read independently with Python's sqlite3.
@Suite("storekeep migrate: Core Data stores with their app's bundle", .serialized)
struct CoreDataBundleMigrationTests {
    static let message = Comment(rawValue: "the shared corpus (../shared/corpus/models) is absent")
    static var corpusIsPresent: Bool { ModelFiles.corpusIsPresent }

    /// A corpus store, its project folder, bundle and the version it was made with.
    struct Made: Sendable, CustomStringConvertible {
        var project: String
        var bundle: String
        var store: String
        var version: String
        var description: String { store }

        func storePath(in root: URL = ModelFiles.corpusModels) -> String {
            root.appendingPathComponent(project).appendingPathComponent("stores/\(store)").path
        }

        func bundlePath(in root: URL = ModelFiles.corpusModels) -> String {
            root.appendingPathComponent(project).appendingPathComponent(bundle + ".xcdatamodeld").path
        }
    }

    static let wibosco = "wibosco-CoreDataMigrationRevised-Example"
    static let alemar = "alemar11-CoreDataPlus"
    static let stores: [Made] = [
        Made(project: wibosco, bundle: "CoreDataMigration_Example", store: "CoreDataMigration_Example_1.sqlite", version: "CoreDataMigration_Example"),
        Made(project: wibosco, bundle: "CoreDataMigration_Example", store: "CoreDataMigration_Example_2.sqlite", version: "CoreDataMigration_Example 2"),
        Made(project: wibosco, bundle: "CoreDataMigration_Example", store: "CoreDataMigration_Example_3.sqlite", version: "CoreDataMigration_Example 3"),
        Made(project: alemar, bundle: "SampleModel", store: "SampleModel_V1.sqlite", version: "SampleModel"),
        Made(project: alemar, bundle: "SampleModel", store: "SampleModel_V2.sqlite", version: "SampleModel2"),
    ]

    /// The primary key in a Core Data global ID `x-coredata://<uuid>/<Entity>/p<pk>`.
    static func primaryKey(of id: GlobalID) -> String {
        String(id.rawValue.split(separator: "/").last?.dropFirst() ?? "")
    }

    /// Rows of each entity of a Core Data store, counted by Python's sqlite3 (`Z_PRIMARYKEY` names).
    static func pythonCounts(_ store: String) throws -> [String: Int] {
        let output = try Python.run("""
            import sqlite3, sys, json
            c = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
            counts = {}
            for ent, name, sup in c.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000"):
                root, s = name, sup
                while s:
                    root, s = c.execute("SELECT Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT = ?", (s,)).fetchone()
                counts[name] = c.execute('SELECT COUNT(*) FROM "Z%s" WHERE Z_ENT = ?' % root.upper(), (ent,)).fetchone()[0]
            print(json.dumps(counts))
            """, [store])
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Int] ?? [:]
    }

    @Test("each store's version is found by Core Data's version hashes, and the store reaches the current version in one step",
          .enabled(if: corpusIsPresent, message), arguments: stores)
    func foundByHashAndMigrated(made: Made) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try ModelLoaderBridge.bundle(made.bundlePath())
        // At its own version: found by hash, copied unchanged.
        let same = try StorekeepProcess.run(["migrate", made.storePath(), "--to", directory.url.appendingPathComponent("same.store").path,
                                             "--model", made.bundlePath(), "--target-version", made.version, "--dry-run", "--json"])
        #expect(same.status == 0, "\(same)")
        let note = try same.jsonObject()["modelNote"] as? String ?? ""
        #expect(note.hasPrefix("version '\(made.version)' found by Core Data's entity version hashes"), "\(note)")
        #expect(note.contains("copied unchanged"), "\(note)")

        let target = directory.url.appendingPathComponent("x.store").path
        let run = try StorekeepProcess.run(["migrate", made.storePath(), "--to", target, "--model", made.bundlePath(), "--json"])
        if made.store == "SampleModel_V2.sqlite" {
            // The current version is CoreDataPlus's first, where Person.id is required with no default:
            // Core Data itself fails this migration's validation (20 persons without an id). The hint
            // names the way forward without writing into the app's folder (CoreDataCorpusStepsTests).
            #expect(run.status == 65, "\(run)")
            let error = try run.jsonError()
            #expect((error["message"] as? String)?.contains("'SampleModel2' to 'SampleModel'") == true)
            let persons = try Self.pythonCounts(made.storePath())["Person"] ?? 0
            #expect((error["message"] as? String)?.contains("Person.id is new, required and has no default value: the \(persons) records of Person would have none, "
                                                             + "and Core Data's own migration fails on them too (give it a constant, or a value per record with generate: uuid-from-global-id)") == true,
                    "\(error)")
            let hint = error["hint"] as? String ?? ""
            #expect(hint.contains("--steps DIR") && hint.contains("generate: uuid-from-global-id") && hint.contains("SampleModel2 to SampleModel.step.yaml"), "\(hint)")
            #expect(!FileManager.default.fileExists(atPath: target))
            return
        }
        #expect(run.status == 0, "\(run)")
        let report = try run.jsonObject()
        #expect(report["model"] as? String == "\(bundle.name) \(bundle.currentVersionName)")
        let steps = (report["modelNote"] as? String ?? "").components(separatedBy: " → ").count - 1
        #expect(steps == (made.version == bundle.currentVersionName ? 0 : 1), "one step: \(report["modelNote"] ?? "")")
        let store = try SyncStore.open(at: target, readOnly: true)
        #expect(store.model.versionName == bundle.currentVersionName)
        let counts = try store.liveRecordCounts()
        for (entity, rows) in try Self.pythonCounts(made.storePath()) where rows > 0 {
            #expect(counts[entity] == rows, "\(made.store): \(entity)")
        }
        // What Core Data's one inferred step drops too: version 4 keeps neither content (the app's 2 → 3
        // policy made sections of it) nor color (its hexColor renames it in version 2 only).
        let dropped = (report["droppedData"] as? [[String: Any]] ?? []).map { "\($0["entity"] ?? "").\($0["property"] ?? "") \($0["values"] ?? "")" }
        let expected: [String: [String]] = ["CoreDataMigration_Example_1.sqlite": ["Post.color 10", "Post.content 10"],
                                            "CoreDataMigration_Example_2.sqlite": ["Post.content 10"]]
        #expect(dropped == expected[made.store] ?? [], "\(made.store)")
        // Every value carried, checked against Python's reading of the source.
        let compared = try CoreDataCorpusValues(store: made.storePath())
            .expectSameValues(in: store, dropped: Set(dropped.map { String($0.split(separator: " ")[0]) }))
        #expect(compared >= 20, "\(made.store): \(compared) values compared")
    }

    @Test("the two-step path (copy at the store's version, then steps) gives the same digest as one command",
          .enabled(if: corpusIsPresent, message), arguments: stores.filter { $0.store != "SampleModel_V2.sqlite" })
    func twoStepPathGivesTheSameDigest(made: Made) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let one = try StorekeepProcess.run(["migrate", made.storePath(), "--to", directory.url.appendingPathComponent("one.store").path,
                                            "--model", made.bundlePath(), "--json"])
        let copy = directory.url.appendingPathComponent("copy.store").path
        let first = try StorekeepProcess.run(["migrate", made.storePath(), "--to", copy, "--model", made.bundlePath(),
                                              "--model-version", made.version, "--target-version", made.version, "--json"])
        let second = try StorekeepProcess.run(["migrate", copy, "--to", directory.url.appendingPathComponent("two.store").path,
                                               "--model", made.bundlePath(), "--json"])
        #expect(one.status == 0 && first.status == 0 && second.status == 0, "\(one)\n\(first)\n\(second)")
        let digest = try one.jsonObject()["digest"] as? String
        let twoStep = try second.jsonObject()["digest"] as? String
        #expect(digest != nil && digest == twoStep)
    }

    @Test("wibosco's mapping model 2 → 3: its custom policy needs a block for Post; with one, the mapping carries the posts",
          .enabled(if: corpusIsPresent, message))
    func wiboscoMappingModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.copyItem(at: ModelFiles.corpusModels.appendingPathComponent(Self.wibosco), to: directory.url.appendingPathComponent(Self.wibosco))
        let made = Self.stores[1]
        let arguments = ["migrate", made.storePath(in: directory.url), "--to", directory.url.appendingPathComponent("v3.store").path,
                         "--model", made.bundlePath(in: directory.url), "--target-version", "CoreDataMigration_Example 3", "--json"]
        let refused = try StorekeepProcess.run(arguments)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("Migration2to3ModelMapping.xcmappingmodel") && refused.stderr.contains("entity mapping PostToPost")
                && refused.stderr.contains("CoreDataMigration_Example.Post2ToPost3MigrationPolicy") && refused.stderr.contains("give Post a block"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("v3.store").path))
        try directory.write("from: CoreDataMigration_Example 2\nto: CoreDataMigration_Example 3\nentities:\n  - entity: Post   # content goes; the app's policy made sections of it\n",
                            to: "\(Self.wibosco)/CoreDataMigration_Example 2 to CoreDataMigration_Example 3.step.yaml")
        let run = try StorekeepProcess.run(arguments)
        #expect(run.status == 0, "\(run)")
        #expect((try run.jsonObject()["modelNote"] as? String)?.contains("mapping model Migration2to3ModelMapping.xcmappingmodel with step file") == true)
        let output = try Python.run("""
            import sqlite3, sys, json
            c = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
            print(json.dumps({str(pk): [pid, color, date] for pk, pid, color, date in c.execute("SELECT Z_PK, ZPOSTID, ZHEXCOLOR, ZDATE FROM ZPOST")}))
            """, [made.storePath()])
        let posts = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [Any]])
        let store = try SyncStore.open(at: directory.url.appendingPathComponent("v3.store").path, readOnly: true)
        #expect(try store.liveRecordCounts()["Post"] == posts.count)
        #expect((try store.liveRecordCounts()["Section"] ?? 0) == 0, "the mapping's Section mapping has no source")
        for id in try store.globalIDs(of: "Post") {
            let record = try #require(try store.record(id))
            let source = try #require(posts[Self.primaryKey(of: id)], "\(id)")
            #expect((record.values["postID"] ?? .null) == (source[0] as? String).map(AttributeValue.string) ?? .null)
            #expect((record.values["hexColor"] ?? .null) == (source[1] as? String).map(AttributeValue.string) ?? .null)
            // The store counts seconds from 1970, Core Data from 2001.
            if let seconds = source[2] as? Double { #expect(record.values["date"] == .date(Date(timeIntervalSince1970: seconds + 978_307_200))) }
            #expect(record.values["content"] == nil)
        }
    }

    @Test("CoreDataPlus's mapping model V2 → V3: policies need blocks; then previous owners come from the old owner",
          .enabled(if: corpusIsPresent, message))
    func alemarMappingModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.copyItem(at: ModelFiles.corpusModels.appendingPathComponent(Self.alemar), to: directory.url.appendingPathComponent(Self.alemar))
        let made = Self.stores[4]
        let target = directory.url.appendingPathComponent("v3.store").path
        let arguments = ["migrate", made.storePath(in: directory.url), "--to", target, "--model", made.bundlePath(in: directory.url),
                         "--target-version", "SampleModel3", "--json"]
        let refused = try StorekeepProcess.run(arguments)
        #expect(refused.status == 65, "\(refused)")
        for name in ["CarToCar", "SportCarToSportCar", "LuxuryCarToLuxuryCar"] { #expect(refused.stderr.contains("entity mapping \(name) names the custom migration policy")) }
        try directory.write("from: SampleModel2\nto: SampleModel3\nentities:\n  - entity: Car\n  - entity: SportCar\n  - entity: LuxuryCar\n",
                            to: "\(Self.alemar)/SampleModel2 to SampleModel3.step.yaml")
        let run = try StorekeepProcess.run(arguments)
        #expect(run.status == 0, "\(run)")
        let output = try Python.run("""
            import sqlite3, sys, json
            c = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
            names = dict(c.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY"))
            cars = {"%s/p%d" % (names[ent], pk): [plate, owner] for pk, ent, plate, owner in c.execute("SELECT Z_PK, Z_ENT, ZNUMBERPLATE, ZOWNER FROM ZCAR")}
            print(json.dumps(cars))
            """, [made.storePath()])
        let cars = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [Any]])
        let store = try SyncStore.open(at: target, readOnly: true)
        // Every source row is a record with every value it had (Python's reading); the old maker
        // text has no place in version 3 (its makers are records of their own, which the mapping
        // makes none of: its Maker mapping has no source entity).
        try CoreDataCorpusValues(store: made.storePath()).expectSameValues(in: store, dropped: ["Car.maker", "SportCar.maker", "LuxuryCar.maker"])
        #expect((try store.liveRecordCounts()["Maker"] ?? 0) == 0)
        var withOwner = 0
        for entity in ["Car", "SportCar", "LuxuryCar"] {
            for id in try store.globalIDs(of: entity) {
                let parts = id.rawValue.split(separator: "/")
                // The store renamed ExpensiveSportCar to LuxuryCar; Z_PRIMARYKEY keeps the old name.
                let key = (parts[parts.count - 2] == "LuxuryCar" ? "ExpensiveSportCar" : String(parts[parts.count - 2])) + "/" + parts[parts.count - 1]
                let source = try #require(cars[key], "\(id)")
                let owner = try store.related("owner", of: id).map(Self.primaryKey)
                let previous = try store.related("previousOwners", of: id).map(Self.primaryKey)
                let expected = (source[1] as? Int).map { [String($0)] } ?? []
                #expect(owner == expected && previous == expected, "\(id)")
                if !expected.isEmpty { withOwner += 1 }
            }
        }
        #expect(withOwner > 0, "no car had an owner to carry")
    }

    @Test("a store whose version is in no version of the bundle: exit 65 naming the closest version and what differs",
          .enabled(if: corpusIsPresent, message))
    func noVersionFits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let project = directory.url.appendingPathComponent(Self.wibosco)
        try FileManager.default.copyItem(at: ModelFiles.corpusModels.appendingPathComponent(Self.wibosco), to: project)
        // Every version gains an attribute the stores never had.
        let bundle = project.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld")
        for version in try FileManager.default.contentsOfDirectory(atPath: bundle.path) where version.hasSuffix(".xcdatamodel") {
            let contents = bundle.appendingPathComponent(version).appendingPathComponent("contents")
            let text = try String(contentsOf: contents, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "<entity name=\"Post\" representedClassName=\"Post\" syncable=\"YES\" codeGenerationType=\"class\">",
                                               with: "<entity name=\"Post\" representedClassName=\"Post\" syncable=\"YES\" codeGenerationType=\"class\">\n<attribute name=\"subtitle\" optional=\"YES\" attributeType=\"String\"/>").utf8)
                .write(to: contents)
        }
        let result = try StorekeepProcess.run(["migrate", Self.stores[0].storePath(), "--to", directory.url.appendingPathComponent("x.store").path,
                                               "--model", bundle.path, "--json"])
        #expect(result.status == 65, "\(result)")
        let error = try result.jsonError()
        let message = error["message"] as? String ?? ""
        #expect(message.contains("no version of CoreDataMigration_Example fits the store"), "\(message)")
        #expect(message.contains("its version hashes match no version") && message.contains("the model in its Z_MODELCACHE matches no version"))
        #expect(message.contains("closest: 'CoreDataMigration_Example'") && message.contains("Post.subtitle is in 'CoreDataMigration_Example', not in 'store'"), "\(message)")
        #expect((error["hint"] as? String)?.contains("--model-version") == true)
    }

    @Test("two versions that fit equally are never guessed between; --model-version decides",
          .enabled(if: corpusIsPresent, message))
    func twoVersionsFit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle = try Self.bundleWithACopyOfVersion3(in: directory)
        let target = directory.url.appendingPathComponent("x.store").path
        let ambiguous = try StorekeepProcess.run(["migrate", Self.stores[2].storePath(), "--to", target, "--model", bundle.path])
        #expect(ambiguous.status == 65, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("several versions of CoreDataMigration_Example fit the store by its version hashes"))
        #expect(ambiguous.stderr.contains("'Copy of 3'") && ambiguous.stderr.contains("'CoreDataMigration_Example 3'") && ambiguous.stderr.contains("--model-version"))
        // The target among them is taken, as Core Data opens a store with its current model when it can.
        let atTarget = try StorekeepProcess.run(["migrate", Self.stores[2].storePath(), "--to", target, "--model", bundle.path, "--target-version", "Copy of 3", "--dry-run", "--json"])
        #expect(atTarget.status == 0, "\(atTarget)")
        let atTargetNote = try atTarget.jsonObject()["modelNote"] as? String ?? ""
        #expect(atTargetNote.contains("fit equally, and the target is taken"), "\(atTargetNote)")
        let chosen = try StorekeepProcess.run(["migrate", Self.stores[2].storePath(), "--to", target, "--model", bundle.path,
                                               "--model-version", "CoreDataMigration_Example 3", "--json"])
        #expect(chosen.status == 0, "\(chosen)")
        #expect((try chosen.jsonObject()["modelNote"] as? String)?.hasPrefix("version 'CoreDataMigration_Example 3' given with --model-version") == true)
    }

    /// A copy of wibosco's project in `directory` whose bundle has one more version, "Copy of 3":
    /// version 3 with a class name changed, which neither Core Data's hashes nor a model cache
    /// comparison see. Returns the bundle.
    static func bundleWithACopyOfVersion3(in directory: TemporaryDirectory) throws -> URL {
        let project = directory.url.appendingPathComponent(wibosco)
        try FileManager.default.copyItem(at: ModelFiles.corpusModels.appendingPathComponent(wibosco), to: project)
        let bundle = project.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld")
        let copy = bundle.appendingPathComponent("Copy of 3.xcdatamodel")
        try FileManager.default.copyItem(at: bundle.appendingPathComponent("CoreDataMigration_Example 3.xcdatamodel"), to: copy)
        let contents = copy.appendingPathComponent("contents")
        try Data(try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(of: "representedClassName=\"Section\"", with: "representedClassName=\"Part\"").utf8)
            .write(to: contents)
        return bundle
    }

    @Test("model show gives each entity's Core Data hash; inspect gives the store's; they agree for the version it was made with",
          .enabled(if: corpusIsPresent, message), arguments: stores)
    func hashesShown(made: Made) throws {
        let show = try StorekeepProcess.run(["model", "show", made.bundlePath(), "--version", made.version, "--json"])
        let inspect = try StorekeepProcess.run(["inspect", made.storePath(), "--json"])
        #expect(show.status == 0 && inspect.status == 0, "\(show)\n\(inspect)")
        let entities = try show.jsonObject()["entities"] as? [[String: Any]] ?? []
        let computed = Dictionary(uniqueKeysWithValues: entities.compactMap { entity -> (String, String)? in
            guard let name = entity["name"] as? String, let hash = entity["coreDataHash"] as? String else { return nil }
            return (name, hash)
        })
        let stored = try inspect.jsonObject()["versionHashes"] as? [String: String] ?? [:]
        #expect(!stored.isEmpty && computed == stored)
    }
}

/// Reads a bundle the way the binary does (through the library), for expectations about names.
enum ModelLoaderBridge {
    static func bundle(_ path: String) throws -> ModelBundle {
        let result = try StorekeepProcess.run(["model", "show", path, "--json"])
        let object = try result.jsonObject()
        let name = object["name"] as? String ?? ""
        return ModelBundle(name: name, versions: (object["versions"] as? [String] ?? []).map { ManagedModel(name: name, versionName: $0, entities: []) },
                           currentVersionName: object["currentVersion"] as? String ?? "")
    }
}

/// Runs Python 3 scripts: an independent reading of the files storekeep reads.
enum Python {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The standard output of `python3 -c script arguments…`.
    static func run(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "python3 failed: \(String(decoding: problem, as: UTF8.self))") }
        return String(decoding: data, as: UTF8.self)
    }
}
