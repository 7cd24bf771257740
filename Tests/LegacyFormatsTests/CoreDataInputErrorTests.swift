import Foundation
import GRDB
import LegacyFormats
import ObjectModel
import Testing

@Suite("Core Data stores: wrong inputs")
struct CoreDataInputErrorTests {
    func temporaryFile(_ name: String, _ contents: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cderr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    @Test func aMissingFileIsMissingInput() {
        let error = #expect(throws: CoreDataStoreError.self) {
            try CoreDataStoreReader.open(at: URL(fileURLWithPath: "/nonexistent/Store.sqlite"))
        }
        #expect(error?.failureKind == .missingInput)
    }

    @Test func anXMLPropertyListIsNotSQLite() throws {
        let url = try temporaryFile("Notes.sqlite", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n".utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: url) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.description.contains("looks like an XML property list") == true)
    }

    @Test func aSQLiteFileWithoutCoreDataTablesIsRefused() throws {
        let url = try temporaryFile("Other.sqlite", Data())
        let folder = url.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)") }
        try queue.close()
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: url) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("a SQLite database but not a Core Data store") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == listing)
    }

    @Test func anUnknownEntityIsAUsageError() throws {
        let url = try temporaryFile("Tiny.sqlite", Data())
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.removeItem(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1);
                INSERT INTO Z_METADATA VALUES (1, 'AAAA', NULL);
                INSERT INTO ZNOTE VALUES (1, 1, 1, 'hello');
                """)
        }
        try queue.close()
        let reader = try CoreDataStoreReader.open(at: url)
        #expect(reader.entityCounts == ["Note": 1])
        let error = #expect(throws: CoreDataStoreError.self) { try reader.forEachRecord(entity: "Nope") { _ in true } }
        #expect(error?.failureKind == .usage)
    }
}
