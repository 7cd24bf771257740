import Foundation
import GRDB
import Testing

/// Hostile names in the relationship positions of a Core Data store: a to-one's foreign-key column
/// (`Z<NAME>`) and its entity column (`Z<n>_<NAME>`), and a many-to-many join table
/// (`Z_<n><NAME>`) and its key column. Each is carried exactly into the storekeep store (a to-one
/// column, a `j_` join table under the name) with every link, and no SQL of its own runs.
extension HostileNameTests {
    /// A Core Data store of `Task` (3 rows, a to-one `NAME` to `Tag`) and `Tag` (2 rows, a
    /// many-to-many `NAME` to `Task`, inverse `TAGS`), where `NAME` is `name` upper-cased as Core
    /// Data writes it.
    static func coreDataRelationshipStore(at path: String, name: String) throws {
        let n = name.uppercased()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: coreDataBookkeeping(uuid: "HOSTILE-RELATIONSHIPS") + """
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Task', 0, 3), (2, 'Tag', 0, 2);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR);
                INSERT INTO ZTAG VALUES (1, 2, 1, 'red'), (2, 2, 1, 'blue');
                CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR,
                                    \(quoted("Z" + n)) INTEGER, \(quoted("Z2_" + n)) INTEGER);
                INSERT INTO ZTASK VALUES (1, 1, 1, 'a', 1, 2), (2, 1, 1, 'b', 2, 2), (3, 1, 1, 'c', NULL, NULL);
                CREATE TABLE \(quoted("Z_2" + n)) (Z_2TAGS INTEGER, \(quoted("Z_1" + n)) INTEGER, PRIMARY KEY (Z_2TAGS, \(quoted("Z_1" + n))));
                INSERT INTO \(quoted("Z_2" + n)) VALUES (1, 1), (1, 2), (2, 3);
                """)
        }
        try queue.close()
    }

    @Test("a foreign-key column, an entity column and a join table named with it migrate with every link", arguments: names)
    func coreDataRelationshipNames(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        let source = work.path("Links.sqlite")
        try Self.coreDataRelationshipStore(at: source, name: name.text)
        let n = name.text.uppercased()
        let target = work.path("t.store")
        let migrated = try work.run(["migrate", source, "--to", target, "--json"])
        #expect(migrated.status == 0, "\(migrated.description.prefix(2000))")
        #expect(try migrated.jsonObject()["verified"] as? Bool == true, "\(migrated.description.prefix(2000))")

        let (toOne, toMany) = try work.read(target) { db in
            (try Row.fetchOne(db, sql: "SELECT kind, table_name, column_name FROM sk_column WHERE entity = 'Task' AND property = ?", arguments: [n]),
             try Row.fetchOne(db, sql: "SELECT kind, table_name FROM sk_column WHERE entity = 'Tag' AND property = ?", arguments: [n]))
        }
        let toOneRow = try #require(toOne, "Task.\(n.prefix(40)) is not mapped")
        let toManyRow = try #require(toMany, "Tag.\(n.prefix(40)) is not mapped")
        #expect(toOneRow[0] as String? == "to-one")
        #expect(toManyRow[0] as String? == "join")
        let joinTable = try #require(toManyRow[1] as String?)
        // The layout joins names with `_` and writes a `.` as `_` (docs/format.md).
        #expect(joinTable.hasPrefix("j_") && joinTable.contains(n.replacingOccurrences(of: ".", with: "_")), "\(joinTable.prefix(80))")
        // Every link is there: two tasks point at a tag, and the join table holds three pairs.
        let (pointing, pairs) = try work.read(target) { db in
            (try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM \(Self.quoted(toOneRow[1] as String? ?? "")) WHERE \(Self.quoted(toOneRow[2] as String? ?? "")) IS NOT NULL
                """),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(Self.quoted(joinTable))"))
        }
        #expect(pointing == 2)
        #expect(pairs == 3)
        let tables = try work.read(target) { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables.allSatisfy { $0.hasPrefix("sk_") || $0.hasPrefix("e_") || $0.hasPrefix("j_") }, "\(tables.map { $0.prefix(60) })")
        let check = try work.run(["check", target, "--full"])
        #expect(check.status == 0, "\(check.description.prefix(2000))")
        try work.expectNothingElse()
    }
}
