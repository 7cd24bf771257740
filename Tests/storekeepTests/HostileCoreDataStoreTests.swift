import Foundation
import GRDB
import ObjectModel
import SyncStore
import Testing

/// `storekeep migrate` of Core Data stores holding what Core Data never writes: every value is
/// carried exactly or its record rejected with a reason (and counted), and "verified" means the
/// target accounts for every row of the source's tables. Real SQLite files, the built binary.
@Suite("storekeep migrate: hostile Core Data stores")
struct HostileCoreDataStoreTests {
    /// The model of `Shop.sqlite`: a `Book` of every scalar type, with a to-one `author`.
    static let modelContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Author">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Book">
                <attribute name="count" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="big" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="flag" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="weight" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="ratio" optional="YES" attributeType="Float" usesScalarValueType="YES"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="tag" optional="YES" attributeType="UUID"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"/>
            </entity>
        </model>
        """

    /// Each hostile row of `ZBOOK`: how it is made (an update of an ordinary row, or an insert),
    /// and what the rejection of it says; `nil` for a value that is carried exactly.
    static let hostileRows: [(key: Int, sql: String, reason: String?)] = [
        (7, "UPDATE ZBOOK SET Z_ENT = 99 WHERE Z_PK = 7", "Z_ENT 99, which names no entity"),
        (8, "UPDATE ZBOOK SET ZAUTHOR = 'abc' WHERE Z_PK = 8", "ZBOOK.ZAUTHOR of Book p8 holds the text 'abc', not a Z_PK of Author"),
        (9, "UPDATE ZBOOK SET ZAUTHOR = 1.5 WHERE Z_PK = 9", "holds the real 1.5, not a Z_PK of Author"),
        (10, "UPDATE ZBOOK SET ZCOUNT = 70000 WHERE Z_PK = 10", "70000, outside Integer 16's -32768…32767"),
        (11, "UPDATE ZBOOK SET ZCOUNT = 2.5 WHERE Z_PK = 11", "2.5, which is not a whole number"),
        (12, "UPDATE ZBOOK SET ZBIG = 'twelve' WHERE Z_PK = 12", "the text 'twelve', which Core Data does not store for an attribute of type Integer 64"),
        (13, "UPDATE ZBOOK SET ZFLAG = 2 WHERE Z_PK = 13", "2 (a Boolean is stored as 0 or 1)"),
        (14, "UPDATE ZBOOK SET ZWEIGHT = 9e999 WHERE Z_PK = 14", nil),
        (15, "UPDATE ZBOOK SET ZRATIO = 1e300 WHERE Z_PK = 15", "beyond the largest Float"),
        (16, "UPDATE ZBOOK SET ZWHEN = 9e999 WHERE Z_PK = 16", "which is no point in time"),
        (17, "UPDATE ZBOOK SET ZWHEN = 9007199254740993 WHERE Z_PK = 17", "no Double date holds exactly"),
        (18, "UPDATE ZBOOK SET ZTITLE = CAST(X'41FF42' AS TEXT) WHERE Z_PK = 18", "not valid UTF-8"),
        (19, "UPDATE ZBOOK SET ZPRICE = '12abc' WHERE Z_PK = 19", "'12abc', which is not a decimal number"),
        (20, "UPDATE ZBOOK SET ZTAG = X'0102' WHERE Z_PK = 20", "a blob of 2 bytes, not the 16 bytes of a UUID"),
        (21, "UPDATE ZBOOK SET Z_ENT = NULL WHERE Z_PK = 21", "has Z_ENT NULL, which names no entity"),
        (22, "UPDATE ZBOOK SET Z_ENT = 1 WHERE Z_PK = 22", "Z_ENT 1 (Author), whose rows are kept in ZAUTHOR, not in ZBOOK"),
        (0, "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (0, 2, 1, 'zero')", "has no positive primary key"),
        (-3, "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (-3, 2, 1, 'minus three')", "has no positive primary key"),
    ]

    /// Writes `Shop.sqlite` (24 ordinary books, 2 authors, then the hostile rows) and its model.
    static func makeStore(in directory: TemporaryDirectory, hostile: [(key: Int, sql: String, reason: String?)]) throws -> (store: String, model: String) {
        let model = directory.url.appendingPathComponent("Shop.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(modelContents.utf8).write(to: model.appendingPathComponent("contents"))
        let path = directory.url.appendingPathComponent("Shop.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZAUTHOR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNT INTEGER, ZBIG INTEGER, ZFLAG INTEGER,
                    ZWEIGHT FLOAT, ZRATIO FLOAT, ZWHEN TIMESTAMP, ZTITLE VARCHAR, ZPRICE DECIMAL, ZTAG BLOB, ZAUTHOR INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 2), (2, 'Book', 0, 24);
                INSERT INTO Z_METADATA VALUES (1, 'SHOP-STORE-UUID', NULL);
                INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ann'), (2, 1, 1, 'Bo');
                """)
            for key in 1...24 {
                try db.execute(sql: """
                    INSERT INTO ZBOOK VALUES (?, 2, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [key, key * 10, Int64(key) << 40, key % 2, Double(key) / 4, Double(key) / 8, Double(key) * 86_400,
                                     "book \(key)", "\(key).25", Data((0..<16).map { UInt8($0 + key) }), 1 + key % 2])
            }
            for row in hostile { try db.execute(sql: row.sql) }
        }
        try queue.close()
        return (path, model.path)
    }

    @Test("every hostile row is rejected with its reason and counted; the rest, and infinity, are carried exactly")
    func hostileRowsAreRejectedAndCounted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (source, model) = try Self.makeStore(in: directory, hostile: Self.hostileRows)
        let target = directory.url.appendingPathComponent("shop.store").path

        let stopped = try StorekeepProcess.run(["migrate", source, "--to", target, "--model", model, "--batch-size", "4"])
        #expect(stopped.status == 65, "\(stopped)")
        #expect(stopped.stderr.contains("stopped at a record that cannot be written"), "\(stopped.stderr)")

        let skipped = try StorekeepProcess.run(["migrate", source, "--to", target, "--model", model, "--batch-size", "4", "--on-error", "skip", "--json"])
        #expect(skipped.status == 0, "\(skipped)")
        let report = try skipped.jsonObject()
        #expect(report["verified"] as? Bool == true)
        let streams = report["streams"] as? [[String: Any]] ?? []
        let read = streams.reduce(0) { $0 + (($1["read"] as? Int) ?? 0) }
        #expect(read == 2 + 24 + 2, "every row of ZAUTHOR and ZBOOK read: \(streams)")
        let rejected = Self.hostileRows.filter { $0.reason != nil }.count
        #expect(streams.reduce(0) { $0 + (($1["rejected"] as? Int) ?? 0) } == rejected, "\(streams)")
        #expect(streams.contains { $0["stream"] as? String == "ZBOOK rows of no entity" && $0["rejected"] as? Int == 5 }, "\(streams)")

        let lines = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == rejected)
        for row in Self.hostileRows {
            guard let reason = row.reason else { continue }
            #expect(lines.contains { $0.contains(reason) }, "no rejection says “\(reason)” (row \(row.key)):\n\(lines.joined(separator: "\n"))")
        }

        let store = try SyncStore.open(at: target, readOnly: true)
        // 24 ordinary rows, less the three whose Z_ENT was changed and the twelve rejected records.
        #expect(try store.liveRecordCounts()["Book"] == 24 - 3 - (rejected - 5))
        let infinite = try #require(try store.record(GlobalID("x-coredata://SHOP-STORE-UUID/Book/p14")))
        #expect(infinite.values["weight"] == .double(.infinity), "an infinite Double is carried as it is")
        let ordinary = try #require(try store.record(GlobalID("x-coredata://SHOP-STORE-UUID/Book/p3")))
        #expect(ordinary.values["price"] == .decimal("3.25"))
        #expect(ordinary.values["count"] == .integer(30))
        #expect(ordinary.toOne["author"] == GlobalID("x-coredata://SHOP-STORE-UUID/Author/p2"))
    }

    @Test("a row whose Z_ENT names no entity is not lost: 7 rows are 6 written and 1 rejected, or a stop")
    func unknownEntityNumberIsNotLost() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("Tasks.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Task', 0, 7);
                INSERT INTO Z_METADATA VALUES (1, 'TASKS-UUID', NULL);
                INSERT INTO ZTASK VALUES (1, 1, 1, 'a'), (2, 1, 1, 'b'), (3, 1, 1, 'c'), (4, 7, 1, 'd'), (5, 1, 1, 'e'), (6, 1, 1, 'f'), (7, 1, 1, 'g');
                """)
        }
        try queue.close()
        let target = directory.url.appendingPathComponent("tasks.store").path

        let stopped = try StorekeepProcess.run(["migrate", path, "--to", target])
        #expect(stopped.status == 65, "\(stopped)")
        #expect(stopped.stderr.contains("ZTASK row Z_PK 4 has Z_ENT 7, which names no entity in Z_PRIMARYKEY"), "\(stopped.stderr)")

        let skipped = try StorekeepProcess.run(["migrate", path, "--to", target, "--on-error", "skip", "--json"])
        #expect(skipped.status == 0, "\(skipped)")
        let report = try skipped.jsonObject()
        let streams = report["streams"] as? [[String: Any]] ?? []
        #expect(streams.reduce(0) { $0 + (($1["written"] as? Int) ?? 0) } == 6, "\(streams)")
        #expect(streams.reduce(0) { $0 + (($1["rejected"] as? Int) ?? 0) } == 1, "\(streams)")
        #expect(report["verified"] as? Bool == true)
    }
}
