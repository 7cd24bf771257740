import Foundation
import GRDB
import SyncStore
import Testing

/// `storekeep migrate` of a Core Data store that has no `Z_MODELCACHE` and no `--model`: the model
/// is inferred from the tables, and the output says so. Runs without the shared corpus: the store
/// is written here, laid out as Core Data lays one out.
@Suite("storekeep migrate: a Core Data store without a model")
struct CoreDataInferredModelTests {
    static let rows = 250

    /// Writes `Tasks.sqlite`: `Z_PRIMARYKEY`, `Z_METADATA` (no model cache) and one entity table.
    func makeStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("Tasks.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZTITLE VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Task', 0, \(Self.rows));
                INSERT INTO Z_METADATA VALUES (1, 'TASKS-STORE-UUID', NULL);
                """)
            let insert = try db.makeStatement(sql: "INSERT INTO ZTASK VALUES (?, 1, 1, ?, ?)")
            for key in 1...Self.rows {
                try insert.execute(arguments: [key, key % 2, "task \(key)"])
            }
        }
        try queue.close()
        return path
    }

    @Test("the report says the model was inferred, each note its own clause, and every row is migrated")
    func inferredModelIsAnnounced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try makeStore(in: directory.url)
        let target = directory.url.appendingPathComponent("tasks.store").path

        let planned = try StorekeepProcess.run(["migrate", source, "--to", target, "--dry-run"])
        #expect(planned.status == 0, "\(planned)")
        #expect(planned.stdout.contains("model inferred from Z_PRIMARYKEY"), "\(planned.stdout)")

        let migrated = try StorekeepProcess.run(["migrate", source, "--to", target, "--json"])
        #expect(migrated.status == 0, "\(migrated)")
        let note = try migrated.jsonObject()["modelNote"] as? String ?? ""
        #expect(note.hasPrefix("model inferred from Z_PRIMARYKEY"), "\(note)")
        // Where the model came from, then what inference leaves out: two clauses, not one run-on sentence.
        #expect(note.contains("(the store has no Z_MODELCACHE); to-many relationships whose inverse is to-one are not inferred"), "\(note)")
        #expect(try SyncStore.open(at: target, readOnly: true).liveRecordCounts() == ["Task": Self.rows])
    }
}
