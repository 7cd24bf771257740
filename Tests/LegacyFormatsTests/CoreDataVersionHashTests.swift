import Foundation
import GRDB
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

/// Core Data's entity version hashes computed by ``CoreDataVersionHash``, against the ground truth:
/// the `NSStoreModelVersionHashes` Core Data wrote into every corpus store.
@Suite struct CoreDataVersionHashTests {
    /// Each corpus store made with a bundle of the corpus, with the bundle and the version it was made with.
    static let madeWith: [(store: String, bundle: URL, version: String)] = [
        ("wibosco1", Corpus.model("wibosco-CoreDataMigrationRevised-Example", "CoreDataMigration_Example"), "CoreDataMigration_Example"),
        ("wibosco2", Corpus.model("wibosco-CoreDataMigrationRevised-Example", "CoreDataMigration_Example"), "CoreDataMigration_Example 2"),
        ("wibosco3", Corpus.model("wibosco-CoreDataMigrationRevised-Example", "CoreDataMigration_Example"), "CoreDataMigration_Example 3"),
        ("alemarV1", Corpus.model("alemar11-CoreDataPlus", "SampleModel"), "SampleModel"),
        ("alemarV2", Corpus.model("alemar11-CoreDataPlus", "SampleModel"), "SampleModel2"),
    ]

    @Test("every bundle version a corpus store was made with hashes to the store's metadata, entity for entity",
          .enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage))
    func bundleVersionsHashToTheirStores() throws {
        for (label, bundleURL, versionName) in Self.madeWith {
            let store = try #require(CoreDataCorpus.stores[label])
            let reader = try CoreDataStoreReader.open(at: store)
            defer { reader.close() }
            let stored = try reader.storeVersionHashes()
            #expect(!stored.isEmpty, "\(label) has no NSStoreModelVersionHashes")
            let bundle = try XcodeModelReader().readModel(at: bundleURL)
            let computed = CoreDataVersionHash.entityHashes(of: try bundle.version(named: versionName))
            #expect(Set(computed.keys) == Set(stored.keys), "\(label): entities")
            for (entity, hash) in stored.sorted(by: { $0.key < $1.key }) {
                #expect(computed[entity] == hash, "\(label): \(entity) \(CoreDataVersionHash.hex(computed[entity] ?? [])) ≠ \(CoreDataVersionHash.hex(hash))")
            }
            for other in bundle.versions where other.versionName != versionName {
                #expect(CoreDataVersionHash.entityHashes(of: other) != stored, "\(label): \(other.versionName) must differ")
            }
        }
    }

    @Test("the model each store keeps in Z_MODELCACHE hashes to its metadata (Photos: 54 entities)",
          .enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage),
          arguments: ["Photos", "wibosco1", "wibosco2", "wibosco3", "alemarV1", "alemarV2"])
    func modelCachesHashToTheirMetadata(label: String) throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores[label]))
        defer { reader.close() }
        #expect(reader.modelSource == .modelCache)
        let stored = try reader.storeVersionHashes()
        let computed = CoreDataVersionHash.entityHashes(of: reader.model)
        if label == "Photos" { #expect(stored.count == 54) }
        #expect(Set(computed.keys) == Set(stored.keys))
        let differing = stored.keys.filter { computed[$0] != stored[$0] }.sorted()
        #expect(differing.isEmpty, "\(label): hashes differ for \(differing)")
    }

    @Test("each store's version is found by hash in its bundle, and only that version",
          .enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage))
    func versionsAreFoundByHash() throws {
        for (label, bundleURL, versionName) in Self.madeWith {
            let bundle = try XcodeModelReader().readModel(at: bundleURL)
            let (reader, match) = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores[label]), bundle: bundle,
                                                               versionOverride: nil, preferredVersion: nil)
            defer { reader.close() }
            #expect(match.version.versionName == versionName, "\(label)")
            #expect(match.method == .versionHashes, "\(label): \(match.sentence)")
            #expect(reader.modelSource == .given)
            #expect(reader.model.versionName == versionName)
        }
    }

    @Test("a store whose metadata holds no usable hashes (damaged Z_PLIST) is found by its tables, and two fits are never guessed between",
          arguments: ["7", "'not a plist'", "NULL", "x'62706C6973743030'"])
    func damagedMetadataFallsBackToTables(plist: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdversion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Notes.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1);
                INSERT INTO Z_METADATA VALUES (1, 'UUID', \(plist));
                INSERT INTO ZNOTE VALUES (1, 1, 1, 'hello');
                """)
        }
        try queue.close()
        let one = ManagedModel(name: "Notes", versionName: "Notes 1", entities: [EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string)])])
        var two = one
        two.versionName = "Notes 2"
        two.entities[0].attributes.append(.init(name: "title", type: .string, isOptional: true))
        let (reader, match) = try CoreDataStoreReader.open(at: url, bundle: ModelBundle(name: "Notes", versions: [one, two], currentVersionName: "Notes 2"),
                                                           versionOverride: nil, preferredVersion: "Notes 2")
        defer { reader.close() }
        #expect(match.version.versionName == "Notes 1" && match.method == .tables)
        #expect(match.sentence.contains("the store's metadata has no version hashes"), "\(match.sentence)")
        var three = one
        three.versionName = "Notes 3"
        three.entities[0].attributes[0].type = .uri
        #expect(throws: CoreDataStoreError.self) {
            _ = try CoreDataStoreReader.open(at: url, bundle: ModelBundle(name: "Notes", versions: [one, two, three], currentVersionName: "Notes 1"),
                                             versionOverride: nil, preferredVersion: "Notes 1")
        }
    }

    @Test("what enters the hash changes it; what Core Data leaves out does not")
    func ingredients() {
        let base = ManagedModel(name: "M", versionName: "M", entities: [
            EntityDescription(name: "Shelf", className: "Shelf", attributes: [.init(name: "label", type: .string)],
                              relationships: [.init(name: "books", destination: "Book", inverseName: "shelf", isToMany: true, isOptional: true)]),
            EntityDescription(name: "Book", attributes: [.init(name: "title", type: .string, isOptional: true)],
                              relationships: [.init(name: "shelf", destination: "Shelf", inverseName: "books", isOptional: true, maxCount: 1)]),
        ])
        let hashes = CoreDataVersionHash.entityHashes(of: base)
        #expect(hashes["Book"]?.count == 32)
        func changed(_ edit: (inout ManagedModel) -> Void) -> Bool {
            var copy = base
            edit(&copy)
            return CoreDataVersionHash.entityHashes(of: copy) != hashes
        }
        #expect(!changed { $0.entities[0].className = "Other" })
        #expect(!changed { $0.entities[0].userInfo = ["k": "v"] })
        #expect(!changed { $0.entities[0].relationships[0].deletionRule = .cascade })
        #expect(!changed { $0.entities[1].attributes[0].elementID = "name" })
        #expect(!changed { $0.entities[1].attributes[0].defaultValueString = "x" })
        #expect(!changed { $0.entities[1].attributes.append(.init(name: "scratch", type: .string, isTransient: true)) })
        #expect(changed { $0.entities[1].attributes[0].isOptional = false })
        #expect(changed { $0.entities[1].attributes[0].type = .uri })
        #expect(changed { $0.entities[1].attributes[0].versionHashModifier = "2" })
        #expect(changed { $0.entities[1].attributes[0].allowsExternalBinaryDataStorage = true })
        #expect(changed { $0.entities[1].attributes[0].preservesValueOnDeletion = true })
        #expect(changed { $0.entities[0].relationships[0].isOrdered = true })
        #expect(changed { $0.entities[0].relationships[0].minCount = 1 })
        #expect(changed { $0.entities[0].relationships[0].inverseName = nil })
        #expect(changed { $0.entities[0].isAbstract = true })
        #expect(changed { $0.entities[0].versionHashModifier = "v2" })
        #expect(changed { $0.entities[0].uniquenessConstraints = [["label"]] })
        // A sub-entity's hash includes its parent's: changing the parent changes both.
        var inherited = base
        inherited.entities.append(EntityDescription(name: "Novel", parentName: "Book"))
        let before = CoreDataVersionHash.entityHashes(of: inherited)["Novel"]
        inherited.entities[1].attributes[0].isOptional = false
        #expect(CoreDataVersionHash.entityHashes(of: inherited)["Novel"] != before)
    }
}
