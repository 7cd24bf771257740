import Foundation
import XcodeModel
import GRDB
@testable import LegacyFormats
import ObjectModel
import Testing

@Suite("Core Data stores: WAL, untouched sources, given models, values", .enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage))
struct CoreDataSafetyAndModelTests {
    @Test func photosWALRowsAreSeenAndTheSourceIsUntouched() throws {
        let folder = CoreDataCorpus.photos.deletingLastPathComponent()
        func snapshot() throws -> [String: Data] {
            var contents: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                contents[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return contents
        }
        let before = try snapshot()
        // The fact this test relies on: the -wal holds Moment rows that the main file lacks.
        let mainOnly = try CoreDataCorpus.withDirectCopy(of: CoreDataCorpus.photos, suffixes: []) { try CoreDataCorpus.count($0, table: "ZMOMENT", entity: 41) }
        let withWAL = try CoreDataCorpus.withDirectCopy(of: CoreDataCorpus.photos) { try CoreDataCorpus.count($0, table: "ZMOMENT", entity: 41) }
        #expect(withWAL > mainOnly)
        do {
            let reader = try CoreDataStoreReader.open(at: CoreDataCorpus.photos)
            var moments = 0
            try reader.forEachRecord(entity: "Moment") { _ in moments += 1; return true }
            #expect(moments == withWAL)
            #expect(reader.entityCounts["Moment"] == withWAL)
            _ = try CoreDataCorpus.allRecords(reader)
            reader.close()
        }
        let after = try snapshot()
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, data) in before { #expect(after[name] == data, "\(name) changed") }
    }

    /// The reader's own copy (other tests running at the same time make theirs in the same
    /// temporary folder, so the folder's listing proves nothing): there while open, gone on close.
    @Test func theCopyIsRemovedOnClose() throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores["Recipes"]))
        let folder = reader.snapshot.folder
        #expect(folder.lastPathComponent.hasPrefix("storekeep-coredata-"))
        #expect(folder.deletingLastPathComponent().standardizedFileURL.path == FileManager.default.temporaryDirectory.standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: reader.snapshot.databasePath))
        reader.close()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test(arguments: [(1, "CoreDataMigration_Example"), (2, "CoreDataMigration_Example 2"), (3, "CoreDataMigration_Example 3")])
    func wiboscoStoresReadWithTheirModelVersion(store: Int, version: String) throws {
        let bundle = try XcodeModelReader().readModel(at: Corpus.model("wibosco-CoreDataMigrationRevised-Example", "CoreDataMigration_Example"))
        let model = try #require(bundle.versions.first { $0.versionName == version })
        let given = try CoreDataStoreReader.open(at: CoreDataCorpus.wibosco(store), model: model)
        #expect(given.modelSource == .given)
        let own = try CoreDataStoreReader.open(at: CoreDataCorpus.wibosco(store))
        #expect(own.modelSource == .modelCache)
        #expect(given.entityCounts == own.entityCounts)
        let withGiven = try CoreDataCorpus.allRecords(given)
        let withOwn = try CoreDataCorpus.allRecords(own)
        #expect(withGiven == withOwn)
        #expect(!withGiven.isEmpty)
        // Another version does not fit, and says why.
        let wrong = try #require(bundle.versions.first { $0.versionName == "CoreDataMigration_Example 4" })
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: CoreDataCorpus.wibosco(store), model: wrong) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("does not match the store") == true)
    }

    @Test func wiboscoSectionsPointAtTheirPost() throws {
        let reader = try CoreDataStoreReader.open(at: CoreDataCorpus.wibosco(3))
        var first: CoreDataRecord?
        try reader.forEachRecord(entity: "Section") { first = $0; return false }
        let section = try #require(first)
        #expect(section.toOne["post"] == "x-coredata://\(reader.storeUUID)/Post/p1")
        #expect(section.values["index"] == .integer(0))
    }

    @Test func coreDataBooksNegativeDatesAreBefore2001() throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores["CoreDataBooks"]))
        #expect(reader.modelSource == .inferred)
        #expect(reader.modelSentence.contains("no Z_MODELCACHE"))
        var books: [Int64: CoreDataRecord] = [:]
        try reader.forEachRecord(entity: "Book") { books[$0.primaryKey] = $0; return true }
        // sqlite3: SELECT ZCOPYRIGHT FROM ZBOOK WHERE Z_PK = 15 → -2848789424;
        // 2001-01-01T00:00:00Z − 2848789424 s = 1910-09-23T21:36:16Z.
        let psmith = try #require(books[15])
        #expect(psmith.values["TITLE"] == .string("Psmith in the City"))
        guard case .date(let date)? = psmith.values["COPYRIGHT"] else {
            Issue.record("COPYRIGHT is not a date")
            return
        }
        let formatter = ISO8601DateFormatter()
        #expect(formatter.string(from: date) == "1910-09-23T21:36:16Z")
    }

    @Test func recipesInferredToOnesAndJPEGs() throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores["Recipes"]))
        #expect(reader.modelSource == .inferred)
        var cake: CoreDataRecord?
        try reader.forEachRecord(entity: "Recipe") { record in
            if record.values["NAME"] == .string("Chocolate Cake") { cake = record }
            return cake == nil
        }
        let recipe = try #require(cake)
        #expect(recipe.toOne["TYPE"] == "x-coredata://\(reader.storeUUID)/RecipeType/p5")
        #expect(recipe.toOne["IMAGE"] == "x-coredata://\(reader.storeUUID)/Image/p2")
        guard case .binary(let thumbnail)? = recipe.values["THUMBNAILIMAGE"] else {
            Issue.record("THUMBNAILIMAGE is not binary")
            return
        }
        #expect(thumbnail.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
    }
}
