import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// A damaged Core Data store migrated with its app's bundle through a step: the rows no record
/// stands for and the records that cannot be read exactly are rejected and counted on that path
/// too, and the records of an entity the target version removes are not taken for lost rows.
@Suite struct CoreDataBundleDamagedStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-bundle-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Version 1: notes and tags.
    static let version1 = ManagedModel(name: "Notes", versionName: "Notes 1", entities: [
        EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string, isOptional: true)]),
        EntityDescription(name: "Tag", attributes: [.init(name: "label", type: .string, isOptional: true)]),
    ])

    /// Version 2: a note gains a flag (so notes go through the step record by record); tags are gone.
    static let version2 = ManagedModel(name: "Notes", versionName: "Notes 2", entities: [
        EntityDescription(name: "Note", attributes: [
            .init(name: "text", type: .string, isOptional: true), .init(name: "pinned", type: .boolean, isOptional: true),
        ]),
    ])

    /// A version 1 store (no version hashes: found by its tables) with two good notes, a note whose
    /// text is not UTF-8, a `ZNOTE` row whose `Z_ENT` names no entity, and two tags.
    private func makeStore() throws -> String {
        let store = path("Notes.sqlite")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 4), (2, 'Tag', 0, 2);
                INSERT INTO Z_METADATA VALUES (1, 'NOTES-UUID', NULL);
                INSERT INTO ZNOTE VALUES (1, 1, 1, 'first'), (2, 1, 1, 'second'), (3, 1, 1, CAST(X'41FF42' AS TEXT)), (4, 9, 1, 'stray');
                INSERT INTO ZTAG VALUES (1, 2, 1, 'red'), (2, 2, 1, 'blue');
                """)
        }
        try queue.close()
        return store
    }

    @Test("through a step: bad rows rejected and counted, a removed entity's records not counted as lost, verified")
    func damagedRowsThroughAStep() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = ModelBundle(name: "Notes", versions: [Self.version1, Self.version2], currentVersionName: "Notes 2")
        let source = try CoreDataMigrationSource(path: try makeStore(), bundle: bundle, bundlePath: path("Notes.xcdatamodeld"),
                                                 versionOverride: nil, targetVersion: nil)
        #expect(source.match?.version.versionName == "Notes 1")
        #expect(source.chain?.steps.count == 1)
        #expect(source.streams.map(\.name) == ["Note", "ZNOTE rows of no entity"], "no stream for the removed Tag")

        let stopped = try? Migrator(source: source, target: path("stopped.store"), options: MigrationOptions(onError: .stop)).run()
        #expect(stopped?.outcome == .stoppedAtRejectedRecord)

        let report = try Migrator(source: source, target: path("v2.store"), options: MigrationOptions(onError: .skip)).run()
        #expect(report.outcome == .completed && report.verified)
        #expect(report.streams.map { "\($0.stream) \($0.written) \($0.rejected)" } == ["Note 2 1", "ZNOTE rows of no entity 0 1"])
        let migrated = try SyncStore.open(at: path("v2.store"), readOnly: true)
        #expect(migrated.model.versionName == "Notes 2")
        #expect(try migrated.liveRecordCounts()["Note"] == 2)
        let lines = try String(contentsOfFile: path("v2.store.rejected.jsonl"), encoding: .utf8)
        #expect(lines.contains("ZNOTE row Z_PK 4 has Z_ENT 9, which names no entity"), "\(lines)")
        #expect(lines.contains("UTF-8"), "\(lines)")
    }
}
