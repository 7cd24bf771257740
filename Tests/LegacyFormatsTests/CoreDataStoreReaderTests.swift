import Foundation
import GRDB
import LegacyFormats
import ObjectModel
import Testing

@Suite("Core Data stores from the corpus", .enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage))
struct CoreDataStoreReaderTests {
    @Test(arguments: CoreDataCorpus.stores.keys.sorted())
    func everyEntityReadsAsManyRecordsAsItHasRows(label: String) throws {
        let url = try #require(CoreDataCorpus.stores[label])
        let reader = try CoreDataStoreReader.open(at: url)
        let records = try CoreDataCorpus.allRecords(reader, batchSize: 7)
        try CoreDataCorpus.withDirectCopy(of: url) { queue in
            let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") }
            let names = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as String) })
            let parents = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[2] as Int64) })
            for (number, storedName) in names {
                // An entity renamed by migration keeps its old name in Z_PRIMARYKEY (alemar V2).
                let name = reader.model.entity(named: storedName) != nil
                    ? storedName : reader.model.entities.first { $0.elementID == storedName }?.name ?? storedName
                var root = number
                while let parent = parents[root], parent != 0 { root = parent }
                let table = "Z" + (names[root] ?? "").uppercased()
                let expected = try CoreDataCorpus.count(queue, table: table, entity: number)
                let read = records.values.filter { $0.entity == name }.count
                #expect(read == expected, "\(label) \(name): read \(read), table has \(expected)")
                #expect(reader.entityCounts[name] == expected, "\(label) \(name)")
            }
        }
        // Every to-one target is a record that exists, with that primary key and that exact entity.
        for record in records.values {
            for (relationship, target) in record.toOne {
                #expect(records[target] != nil, "\(label) \(record.globalID).\(relationship) → \(target) does not exist")
            }
            for (relationship, targets) in record.toMany {
                for target in targets {
                    #expect(records[target] != nil, "\(label) \(record.globalID).\(relationship) → \(target) does not exist")
                }
            }
        }
        #expect(records.keys.allSatisfy { $0.hasPrefix("x-coredata://\(reader.storeUUID)/") })
    }

    @Test func modelSourcesAreTheExpectedOnes() throws {
        let expected: [String: ModelSource] = [
            "CoreDataBooks": .inferred, "Recipes": .inferred, "Photos": .modelCache, "wibosco1": .modelCache,
            "wibosco2": .modelCache, "wibosco3": .modelCache, "alemarV1": .modelCache, "alemarV2": .modelCache,
        ]
        for (label, source) in expected {
            let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores[label]))
            #expect(reader.modelSource == source, "\(label): \(reader.modelSentence)")
        }
    }

    @Test func photosModelCacheHasItsEntitiesAndInheritance() throws {
        let reader = try CoreDataStoreReader.open(at: CoreDataCorpus.photos)
        try #require(reader.modelSource == .modelCache, "\(reader.modelSentence)")
        let model = reader.model
        #expect(model.entities.count == 54)
        #expect(model.entity(named: "Album")?.parentName == "GenericAlbum")
        #expect(model.entity(named: "GenericAlbum")?.isAbstract == true)
        let assets = try #require(model.relationship("assets", of: "Album"))
        #expect(assets.isToMany && assets.isOrdered && assets.destination == "GenericAsset")
        #expect(assets.inverseName == "albums")
        let summary = reader.summary
        #expect(summary.entities.count == 54)
        #expect(summary.joinTableCount == 14)
        #expect(Set(summary.entities.map(\.table)).count == 43)
        #expect(summary.frameworkVersion == 977)
    }

    @Test func photosManyToManyPairsAndOrderMatchTheJoinTable() throws {
        let reader = try CoreDataStoreReader.open(at: CoreDataCorpus.photos)
        var pairs: [[Int64]] = []
        try reader.forEachRecord(entity: "Album") { album in
            for target in album.toMany["assets"] ?? [] {
                if let (_, key) = CoreDataCorpus.parse(target) { pairs.append([album.primaryKey, key]) }
            }
            return true
        }
        let expected = try CoreDataCorpus.withDirectCopy(of: CoreDataCorpus.photos) { queue in
            try queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT j.Z_26ALBUMS, j.Z_34ASSETS FROM Z_26ASSETS j JOIN ZGENERICALBUM a ON a.Z_PK = j.Z_26ALBUMS
                    WHERE a.Z_ENT = 26 ORDER BY j.Z_26ALBUMS, j.Z_FOK_34ASSETS
                    """).map { [$0[0] as Int64, $0[1] as Int64] }
            }
        }
        #expect(!expected.isEmpty)
        #expect(pairs == expected)
        // The other side lists the same pairs.
        var reverse: [[Int64]] = []
        for entity in ["GenericAsset", "Asset"] {
            try reader.forEachRecord(entity: entity) { asset in
                for album in asset.toMany["albums"] ?? [] {
                    if let (name, key) = CoreDataCorpus.parse(album), name == "Album" { reverse.append([key, asset.primaryKey]) }
                }
                return true
            }
        }
        #expect(reverse.sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func forEachRecordResumesAfterAPrimaryKeyAndStopsWhenAsked() throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores["Recipes"]))
        var all: [Int64] = []
        try reader.forEachRecord(entity: "Ingredient", batchSize: 5) { all.append($0.primaryKey); return true }
        #expect(all == all.sorted() && all.count > 10)
        var firstThree: [Int64] = []
        try reader.forEachRecord(entity: "Ingredient") { firstThree.append($0.primaryKey); return firstThree.count < 3 }
        #expect(firstThree == Array(all.prefix(3)))
        var rest: [Int64] = []
        try reader.forEachRecord(entity: "Ingredient", afterPrimaryKey: firstThree[2], batchSize: 4) { rest.append($0.primaryKey); return true }
        #expect(firstThree + rest == all)
    }
}
