import Foundation
import GRDB
import LegacyFormats
import ObjectModel
import Testing

/// A store laid out the way Core Data lays one out, written here, for what the corpus lacks:
/// external-storage markers, an ordered to-many with a to-one inverse (`Z_FOK_` on the children),
/// and enough rows to cross many batches.
@Suite("Core Data stores: external storage, ordered children, many rows")
struct CoreDataSyntheticStoreTests {
    static let itemCount = 30_000

    static let model = ManagedModel(name: "Files", versionName: "Files", entities: [
        EntityDescription(name: "Folder", attributes: [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "icon", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            AttributeDescription(name: "archived", type: .boolean),
        ], relationships: [
            RelationshipDescription(name: "items", destination: "Item", inverseName: "folder", inverseEntity: "Item", isToMany: true, isOrdered: true, isOptional: true),
        ]),
        EntityDescription(name: "Item", attributes: [
            AttributeDescription(name: "title", type: .string, isOptional: true),
            AttributeDescription(name: "created", type: .date, isOptional: true),
        ], relationships: [
            RelationshipDescription(name: "folder", destination: "Folder", inverseName: "items", inverseEntity: "Folder", isOptional: true, maxCount: 1),
        ]),
    ])

    /// Writes `Files.sqlite` and its `.Files_SUPPORT/_EXTERNAL_DATA/` folder; returns the store.
    func makeStore(missingExternalFile: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdsyn-\(UUID().uuidString)")
        let external = folder.appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        let reference = "5B2E3C1A-0000-4000-8000-00000000ABCD"
        if !missingExternalFile { try Data("big icon bytes".utf8).write(to: external.appendingPathComponent(reference)) }
        let url = folder.appendingPathComponent("Files.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZFOLDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZARCHIVED INTEGER, ZNAME VARCHAR, ZICON BLOB);
                CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, Z_FOK_FOLDER INTEGER, ZCREATED TIMESTAMP, ZTITLE VARCHAR);
                CREATE INDEX ZITEM_ZFOLDER_INDEX ON ZITEM (ZFOLDER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Folder', 0, 3), (2, 'Item', 0, \(Self.itemCount));
                INSERT INTO Z_METADATA VALUES (1, 'STORE-UUID', NULL);
                """)
            try db.execute(sql: "INSERT INTO ZFOLDER VALUES (1, 1, 1, 0, 'inline', ?)", arguments: [Data([0x01, 0xAA, 0xBB])])
            try db.execute(sql: "INSERT INTO ZFOLDER VALUES (2, 1, 1, 1, 'external', ?)", arguments: [Data([0x02]) + Data(reference.utf8) + Data([0])])
            try db.execute(sql: "INSERT INTO ZFOLDER VALUES (3, 1, 1, 0, 'plain', NULL)")
            let insert = try db.makeStatement(sql: "INSERT INTO ZITEM VALUES (?, 2, 1, ?, ?, ?, ?)")
            for key in 1...Self.itemCount {
                // Folder 1 holds items 1...10 in reverse order; the rest are spread over folders 2 and 3.
                let folder = key <= 10 ? 1 : 2 + key % 2
                let order = key <= 10 ? 1024 * (11 - key) : key
                try insert.execute(arguments: [key, folder, order, Double(key) * 60 - 1e9, "item \(key)"])
            }
        }
        try queue.close()
        return url
    }

    @Test func externalMarkersOrderedChildrenAndBatches() throws {
        let url = try makeStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let reader = try CoreDataStoreReader.open(at: url, model: Self.model)
        var folders: [Int64: CoreDataRecord] = [:]
        try reader.forEachRecord(entity: "Folder") { folders[$0.primaryKey] = $0; return true }
        #expect(folders[1]?.values["icon"] == .binary(Data([0xAA, 0xBB])))
        #expect(folders[2]?.values["icon"] == .binary(Data("big icon bytes".utf8)))
        #expect(folders[3]?.values["icon"] == .null)
        #expect(folders[2]?.values["archived"] == .boolean(true))
        let expected = (1...10).reversed().map { "x-coredata://STORE-UUID/Item/p\($0)" }
        #expect(folders[1]?.toMany["items"] == expected)
        #expect(folders[2]?.toMany["items"]?.count == (Self.itemCount - 10) / 2)
        var count = 0
        var last: CoreDataRecord?
        try reader.forEachRecord(entity: "Item", batchSize: 1000) { count += 1; last = $0; return true }
        #expect(count == Self.itemCount)
        #expect(last?.toOne["folder"] == "x-coredata://STORE-UUID/Folder/p\(2 + Self.itemCount % 2)")
        #expect(last?.values["created"] == .date(Date(timeIntervalSinceReferenceDate: Double(Self.itemCount) * 60 - 1e9)))
    }

    @Test func aMissingExternalFileIsReported() throws {
        let url = try makeStore(missingExternalFile: true)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let reader = try CoreDataStoreReader.open(at: url, model: Self.model)
        let error = #expect(throws: CoreDataStoreError.self) { try reader.forEachRecord(entity: "Folder") { _ in true } }
        #expect(error?.failureKind == .missingInput)
        #expect(error?.problem.contains("5B2E3C1A-0000-4000-8000-00000000ABCD") == true)
    }
}
