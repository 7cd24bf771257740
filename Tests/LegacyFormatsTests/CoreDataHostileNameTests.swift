import Foundation
import GRDB
import LegacyFormats
import ObjectModel
import Testing

/// Names in a Core Data store that cannot be carried exactly (a NUL, bytes that are not UTF-8) are
/// refused, naming them; GRDB would otherwise read them cut at the NUL or mended.
@Suite("Core Data stores: names that cannot be carried")
struct CoreDataHostileNameTests {
    /// A one-entity store whose `Z_PRIMARYKEY` name is given as a SQL expression.
    func store(entityName expression: String, table: String = "ZTA", uuid: String = "'NAMES-UUID'") throws -> (URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdname-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Names.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE \(table.quotedSQLIdentifier) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, \(expression), 0, 1);
                INSERT INTO Z_METADATA VALUES (1, \(uuid), NULL);
                INSERT INTO \(table.quotedSQLIdentifier) VALUES (1, 1, 1, 'one');
                """)
        }
        try queue.close()
        return (url, folder)
    }

    @Test("a NUL inside a Z_PRIMARYKEY name is refused, not cut short to the name of another table")
    func nulInEntityNameIsRefused() throws {
        // Read as a C string the name is "Ta", whose table ZTA exists: it would be read silently.
        let (url, folder) = try store(entityName: "'Ta' || char(0) || 'sk'")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: url) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("Z_ENT 1, \"Ta\\0sk\", holds a NUL character") == true, "\(error?.description ?? "")")
        #expect(error?.path == url.path)
    }

    @Test("a Z_PRIMARYKEY name that is not UTF-8 is refused")
    func nonUTF8EntityNameIsRefused() throws {
        let (url, folder) = try store(entityName: "CAST(X'54FF61' AS TEXT)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: url) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("is not valid UTF-8") == true, "\(error?.description ?? "")")
    }

    @Test("a NUL in the store UUID, which every global ID holds, is refused rather than cut short")
    func nulInStoreUUIDIsRefused() throws {
        let (url, folder) = try store(entityName: "'Task'", table: "ZTASK", uuid: "'AB' || char(0) || 'CD'")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: CoreDataStoreError.self) { try CoreDataStoreReader.open(at: url) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("the store UUID in Z_METADATA, \"AB\\0CD\", holds a NUL") == true, "\(error?.description ?? "")")
    }

    @Test("names with quotes, semicolons and SQL in them are read exactly")
    func hostileButValidNamesAreReadExactly() throws {
        let name = "Ta\"sk'; DROP TABLE Z_METADATA; --"
        let (url, folder) = try store(entityName: "'Ta\"sk''; DROP TABLE Z_METADATA; --'", table: "Z" + name.uppercased())
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try CoreDataStoreReader.open(at: url)
        defer { reader.close() }
        #expect(reader.model.entities.map(\.name) == [name])
        #expect(reader.entityCounts == [name: 1])
        var titles: [String] = []
        try reader.forEachRecord(entity: name) { record in
            if case .string(let title)? = record.values["TITLE"] { titles.append(title) }
            return true
        }
        #expect(titles == ["one"])
    }
}
