import Foundation
import GRDB
import GRDBSQLite
import ObjectModel
@testable import StoreMaintenance
import SyncStore
import Testing

/// The SQL copy of Core Data rows (`CoreDataCopyPlan`) stores exactly what the record-by-record
/// path stores, and leaves every row it cannot carry to that path.
@Suite("Core Data migrations: rows copied by SQLite")
struct CoreDataCopyTests {
    /// `Animal` (with sub-entity `Bird`) in `ZANIMAL`, every attribute type a copy carries and a
    /// to-one to `Keeper` (with sub-entity `HeadKeeper`) whose inverse is ordered.
    static let model = ManagedModel(name: "Zoo", versionName: "Zoo", entities: [
        EntityDescription(name: "Animal", attributes: [
            .init(name: "i16", type: .integer16, isOptional: true), .init(name: "i64", type: .integer64, isOptional: true),
            .init(name: "flag", type: .boolean, isOptional: true), .init(name: "weight", type: .double, isOptional: true),
            .init(name: "born", type: .date, isOptional: true), .init(name: "name", type: .string, isOptional: true),
            .init(name: "homepage", type: .uri, isOptional: true), .init(name: "price", type: .decimal, isOptional: true),
            .init(name: "tag", type: .uuid, isOptional: true),
            .init(name: "photo", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            .init(name: "raw", type: .binary, isOptional: true),
        ], relationships: [
            .init(name: "keeper", destination: "Keeper", inverseName: "animals", inverseEntity: "Keeper", isOptional: true, maxCount: 1),
        ]),
        EntityDescription(name: "Bird", parentName: "Animal", attributes: [.init(name: "wingspan", type: .float, isOptional: true)]),
        EntityDescription(name: "Keeper", attributes: [.init(name: "name", type: .string, isOptional: true)], relationships: [
            .init(name: "animals", destination: "Animal", inverseName: "keeper", inverseEntity: "Animal", isToMany: true, isOrdered: true, isOptional: true),
        ]),
        EntityDescription(name: "HeadKeeper", parentName: "Keeper"),
    ])

    static let rows = 6_000
    static let fileReference = "0A0B0C0D-0000-4000-8000-000000000001"

    /// The odd rows, by primary key: what each holds, and whether a copy can carry it.
    static let oddities: [(key: Int, set: String, copyable: Bool)] = [
        (101, "ZI64 = 'twelve'", false),                             // text in an integer column: rejected
        (202, "ZI16 = 3.0", true),                                   // INTEGER affinity stores 3
        (303, "ZI64 = 2.5", false),                                  // rejected
        (404, "ZFLAG = 0.5", false),                                 // a Boolean is 0 or 1: rejected
        (505, "ZBORN = -86400", true),                               // an integer date before 2001
        (606, "ZNAME = 'Zoë 🦜'", true),
        (707, "ZNAME = CAST(X'41FF42' AS TEXT)", false),             // not UTF-8: rejected, never repaired
        (808, "ZNAME = CAST(X'410042' AS TEXT)", false),             // U+0000: kept as a BLOB
        (909, "ZNAME = X'5A6F65'", false),                           // UTF-8 in a BLOB
        (1010, "ZPRICE = 7", true),
        (1111, "ZTAG = X'010203'", false),                            // not 16 bytes: rejected
        (1212, "ZPHOTO = X'01' || zeroblob(5000)", false),            // too large to stay inline: a blob file
        (1313, "ZPHOTO = X'02' || CAST('\(fileReference)' AS BLOB) || X'00'", false),  // a file of _EXTERNAL_DATA
        (1414, "ZPHOTO = zeroblob(0)", true),
        (1515, "ZRAW = 'abc'", false),                                // text in a binary column
        (1616, "ZKEEPER = 0", true),
        (1717, "Z3_KEEPER = NULL", false),                            // a target of no entity: rejected
        (1818, "Z3_KEEPER = 99", false),                              // an entity number the store does not have: rejected
        (1919, "ZKEEPER = 'five'", false),
        (2021, "Z_FOK_KEEPER = 1.5", false),                          // an order that is not an integer
        (2125, "Z_FOK_KEEPER = 1.5", true),                           // the same without a target: never read
        (2222, "ZWEIGHT = 4", true),
        (2323, "ZPRICE = 12.25", false),                              // NUMERIC affinity keeps a real: converted one by one

    ]

    /// Writes `Zoo.sqlite` with its `_EXTERNAL_DATA` folder.
    static func makeStore(in folder: URL) throws -> String {
        let external = folder.appendingPathComponent(".Zoo_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data("the photo in a file".utf8).write(to: external.appendingPathComponent(fileReference))
        let path = folder.appendingPathComponent("Zoo.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZANIMAL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZI16 INTEGER, ZI64 INTEGER, ZFLAG INTEGER,
                    ZWEIGHT FLOAT, ZBORN TIMESTAMP, ZNAME VARCHAR, ZHOMEPAGE VARCHAR, ZPRICE DECIMAL, ZTAG BLOB, ZPHOTO BLOB, ZRAW BLOB,
                    ZWINGSPAN FLOAT, ZKEEPER INTEGER, Z3_KEEPER INTEGER, Z_FOK_KEEPER INTEGER);
                CREATE TABLE ZKEEPER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Animal', 0, \(rows)), (2, 'Bird', 1, 0), (3, 'Keeper', 0, 6), (4, 'HeadKeeper', 3, 0);
                INSERT INTO Z_METADATA VALUES (1, 'ZOO-UUID', NULL);
                INSERT INTO ZKEEPER VALUES (1, 3, 1, 'Ann'), (2, 3, 1, 'Bo'), (3, 4, 1, 'Cy'), (4, 3, 1, NULL), (5, 4, 1, 'Di'), (6, 3, 1, 'Ed');
                """)
            let insert = try db.makeStatement(sql: "INSERT INTO ZANIMAL VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for key in 1...rows {
                let bird = key % 7 == 0
                let keeper = key % 5 == 0 ? nil : 1 + key % 6  // 2125 has none
                let tag = Data((0..<16).map { UInt8(truncatingIfNeeded: key &* 31 &+ $0) })
                let photo: Data? = key % 3 == 0 ? Data([0x01]) + Data("p\(key)".utf8) : key % 3 == 1 ? Data("plain \(key)".utf8) : nil
                let arguments: [(any DatabaseValueConvertible)?] = [
                    key, bird ? 2 : 1, key % 300 - 150, Int64(key) * 1_000_003, key % 2, Double(key) / 8,
                    key % 4 == 0 ? Double(key) * 3_600.25 - 5e8 : nil, "animal \(key)", key % 9 == 0 ? "https://zoo.example/\(key)" : nil,
                    key % 11 == 0 ? "\(key)" : nil, key % 2 == 0 ? tag : nil, photo, key % 13 == 0 ? Data([0, 1, 2]) : nil,
                    bird ? Float(key) / 3 : nil, keeper, keeper.map { [3, 5].contains($0) ? 4 : 3 }, keeper.map { _ in key },
                ]
                try insert.execute(arguments: StatementArguments(arguments))
            }
            for oddity in oddities { try db.execute(sql: "UPDATE ZANIMAL SET \(oddity.set) WHERE Z_PK = \(oddity.key)") }
        }
        try queue.close()
        return path
    }

    /// What a migration left, apart from what may differ between equal runs (creation times, row
    /// ids of insert runs, how records were grouped into transactions).
    private func outcome(of source: String, model: ManagedModel? = Self.model, target: String, copying: Bool) throws -> [String] {
        var options = MigrationOptions(batchSize: 50, onError: .skip)
        options.copyBatchSize = 120
        options.copiesWithSQL = copying
        let report = try Migrator(source: try CoreDataMigrationSource(path: source, managedModel: model), target: target, options: options).run()
        #expect(report.outcome == .completed)
        #expect(report.verified)
        let store = try SyncStore.open(at: target, readOnly: true)
        var lines = [try store.contentDigest().digest]
        lines += try store.rejections(migration: report.migrationID).map { "rejected \($0.stream)[\($0.position)]: \($0.reason)" }
        lines += try store.transactions().flatMap(\.changes).map { "\($0.kind) \($0.entity) \($0.globalID) \($0.properties)" }
        lines += try DatabaseQueue(path: target).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'e\\_%' ESCAPE '\\' OR name LIKE 'j\\_%' ESCAPE '\\') ORDER BY name").flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY 1, 2").map { row in
                    row.filter { name, _ in name != "_created" && name != "_insert_run" }.description
                }
            }
        }
        let blobs = ((try? FileManager.default.subpathsOfDirectory(atPath: target + ".blobs")) ?? []).filter { $0.count > 3 }
        return lines + blobs.sorted()
    }

    @Test("a copy stores what the record-by-record path stores, odd values included")
    func copyMatchesRecordByRecord() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdcopy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.makeStore(in: folder)
        let copied = try outcome(of: source, target: folder.appendingPathComponent("copied.store").path, copying: true)
        let oneByOne = try outcome(of: source, target: folder.appendingPathComponent("one-by-one.store").path, copying: false)
        #expect(copied.count == oneByOne.count)
        for (a, b) in zip(copied, oneByOne) where a != b { Issue.record("copied: \(a)\none by one: \(b)") }
        #expect(copied.contains { $0.hasPrefix("rejected Animal[101]") }, "the rejections are there to compare")
        #expect(copied.contains { $0.contains("HeadKeeper/p3") }, "targets of a sub-entity are named by it")
    }

    /// Every Core Data store of the shared corpus, with its own model: Photos' wide tables, WAL
    /// frames, one-to-one pairs, sub-entity targets, and entities that go one by one (join tables).
    @Test("every corpus store migrates to the same store with and without copying",
          .enabled(if: FileManager.default.fileExists(atPath: corpus.path), "the shared corpus (../shared/corpus) is absent; skipped"))
    func corpusStoresMatch() throws {
        let stores = try FileManager.default.subpathsOfDirectory(atPath: Self.corpus.path)
            .filter { $0.hasSuffix(".sqlite") && ($0.hasPrefix("coredata-stores/") || $0.contains("/stores/")) }.sorted()
        #expect(stores.count >= 8)
        var copyable: [String] = []
        for store in stores {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdcorpus-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = Self.corpus.appendingPathComponent(store).path
            let copied = try outcome(of: source, model: nil, target: folder.appendingPathComponent("c.store").path, copying: true)
            let oneByOne = try outcome(of: source, model: nil, target: folder.appendingPathComponent("o.store").path, copying: false)
            #expect(copied == oneByOne, "\(store)")
            let reader = try CoreDataMigrationSource(path: source, managedModel: nil).reader
            let target = try SyncStore.open(at: folder.appendingPathComponent("c.store").path, readOnly: true)
            copyable += reader.model.entities.filter { (reader.entityCounts[$0.name] ?? 0) > 0 }
                .filter { CoreDataCopyPlan(entity: $0.name, reader: reader, store: target) != nil }.map { "\(store) \($0.name)" }
        }
        #expect(copyable.count >= 10, "entities with records that the copy carries: \(copyable)")
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    @Test("the plan copies ordinary rows and refuses exactly the rows it cannot carry")
    func planRefusesWhatItCannotCarry() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try CoreDataMigrationSource(path: try Self.makeStore(in: folder), managedModel: Self.model)
        let store = try SyncStore.create(at: folder.appendingPathComponent("t.store").path, model: Self.model, contentName: "Zoo")
        for entity in ["Animal", "Bird", "Keeper", "HeadKeeper"] {
            let plan = try #require(CoreDataCopyPlan(entity: entity, reader: source.reader, store: store), "\(entity)")
            let digester = try #require(BulkCopyDigester(store: store, entity: entity))
            var refused: [Int64] = []
            var sum = RecordDigestSum()
            try source.reader.forEachRow(sql: plan.readSQL, arguments: [0, 1_000_000]) { row in
                if plan.digest(row: row, into: digester, sum: &sum) == nil { refused.append(row.primaryKey) }
                return true
            }
            let expected = entity == "Animal" || entity == "Bird"
                ? Self.oddities.filter { !$0.copyable && ($0.key % 7 == 0) == (entity == "Bird") }.map { Int64($0.key) }.sorted() : []
            #expect(refused == expected, "\(entity)")
        }
    }
}

private extension OpaquePointer {
    /// Column 0 of a plan's read statement.
    var primaryKey: Int64 { sqlite3_column_int64(self, 0) }
}
