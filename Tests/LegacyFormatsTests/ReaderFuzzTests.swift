import Foundation
import GRDB
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

/// Seeded mutations (truncations and byte flips) of an XML and a binary property list, a Core Data
/// store and a model `contents` file, read in-process by the readers `migrate` and `inspect` use.
/// No case may crash or hang, and every failure must be the reader's typed error naming the file
/// and the place in it (a line, a byte offset, or, for SQLite, the file as a whole). The seeds are
/// fixed: a failure reproduces with the seed and case number in its message.
@Suite("seeded fuzzing of the readers", .serialized)
struct ReaderFuzzTests {
    /// How long one case may take before it counts as a hang (a generous bound for a debug build
    /// on a busy machine; a case takes milliseconds).
    static let caseLimit: TimeInterval = 20

    @Test("XML property lists: 800 truncations and byte flips")
    func xmlPropertyLists() throws {
        let fixture = try PropertyListFixture()
        let original = try Self.plist(format: "xml", in: fixture)
        try fuzz(original, seed: 0x5EED_0001, cases: 800, file: fixture.url("case.plist")) { url in
            try Self.readPropertyList(url, expecting: .xml)
        }
    }

    @Test("binary property lists: 800 truncations and byte flips")
    func binaryPropertyLists() throws {
        let fixture = try PropertyListFixture()
        let original = try Self.plist(format: "binary", in: fixture)
        try fuzz(original, seed: 0x5EED_0002, cases: 800, file: fixture.url("case.plist")) { url in
            try Self.readPropertyList(url, expecting: .binary)
        }
    }

    @Test("model contents files: 800 truncations and byte flips")
    func modelFiles() throws {
        let fixture = try ModelFixture()
        let contents = try fixture.write("Fuzz.xcdatamodeld/Fuzz 1.xcdatamodel/contents", Self.modelContents)
        let bundle = contents.deletingLastPathComponent().deletingLastPathComponent()
        _ = try XcodeModelReader().readModel(at: bundle)  // the original reads
        try fuzz(Data(Self.modelContents.utf8), seed: 0x5EED_0003, cases: 800, file: contents) { _ in
            do {
                _ = try XcodeModelReader().readModel(at: bundle)
                return nil
            } catch let error as XcodeModelError {
                return Self.unmet([
                    (error.path == contents.path, "the error names another file"),
                    (error.failureKind == .badInput, "the error is not bad input"),
                    (error.line != nil, "a model error without a line"),
                    (error.problem.range(of: #"XML error \d+"#, options: .regularExpression) == nil, "a bare XML error number"),
                ], error)
            }
        }
    }

    @Test("Core Data stores: 600 truncations and byte flips, read record by record")
    func coreDataStores() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeep-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Fuzz.sqlite")
        try Self.coreDataStore(at: url)
        let original = try Data(contentsOf: url)
        #expect(try Self.readCoreDataStore(url) == nil, "the original reads")
        try fuzz(original, seed: 0x5EED_0004, cases: 600, file: url) { url in
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            return try Self.readCoreDataStore(url)
        }
    }

    // MARK: - The harness

    /// Writes `cases` mutations of `original` to `file` (half truncations, half flips of 1 to 8
    /// bytes), each read by `read` on a thread of its own with ``caseLimit`` to finish.
    ///
    /// `read` returns what is wrong with how the case failed, or `nil` when it read the case or
    /// refused it as it should; an error it lets through is wrong too.
    private func fuzz(_ original: Data, seed: UInt64, cases: Int, file: URL, read: @escaping @Sendable (URL) throws -> String?) throws {
        var random = SplitMix64(seed: seed)
        for number in 0..<cases {
            var bytes = original
            if number % 2 == 0 {
                bytes = bytes.prefix(Int(random.next() % UInt64(bytes.count)))
            } else {
                for _ in 0..<(1 + random.next() % 8) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            try bytes.write(to: file)
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            Thread.detachNewThread {
                do {
                    if let problem = try read(file) { outcome.set(problem) }
                } catch {
                    outcome.set("\(type(of: error)) is not the reader's typed error: \(error)")
                }
                done.signal()
            }
            guard done.wait(timeout: .now() + Self.caseLimit) == .success else {
                Issue.record("seed \(seed) case \(number): the reader did not finish in \(Int(Self.caseLimit)) s")
                return
            }
            if let problem = outcome.problem {
                Issue.record("seed \(seed) case \(number): \(problem)")
            }
        }
    }

    /// What went wrong in one case, handed from its thread to the test's.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        var problem: String? { lock.withLock { stored } }
        func set(_ problem: String) { lock.withLock { stored = problem } }
    }

    /// `nil` when every condition holds, else the first one's words and the error.
    static func unmet(_ conditions: [(Bool, String)], _ error: any Error) -> String? {
        conditions.first { !$0.0 }.map { "\($0.1): \(error)" }
    }

    /// A small deterministic generator (SplitMix64), so that every run mutates the same bytes.
    struct SplitMix64 {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: - Property lists

    /// A property list of every kind of value, written by Python's `plistlib` (keys sorted, so the
    /// bytes are the same on every run).
    static func plist(format: String, in fixture: PropertyListFixture) throws -> Data {
        let name = "original-\(format).plist"
        try fixture.python("""
            import plistlib, datetime, sys
            speeches = [{'id': 'S%03d' % i, 'title': 'Talk %d — ü' % i, 'duration': i * 1.5, 'count': i * 1000003,
                         'date': datetime.datetime(2020, 1, 1 + i % 28, 12, 0, 0), 'ok': i % 2 == 0,
                         'notes': None if i % 3 else 'n' * i, 'blob': bytes(range(i % 40))} for i in range(40)]
            for s in speeches:
                if s['notes'] is None: del s['notes']
            root = {'version': 1, 'speeches': speeches, 'settings': {'theme': 'dark', 'nested': [[1, 2], {'a': -5}], 'big': 2**62},
                    'speechTypes': [{'name': n, 'green': 60.0, 'builtIn': True} for n in ('Toast', 'Table Topics')]}
            with open(sys.argv[1], 'wb') as f:
                plistlib.dump(root, f, fmt=plistlib.FMT_BINARY if sys.argv[2] == 'binary' else plistlib.FMT_XML, sort_keys=True)
            """, [name, format])
        return try Data(contentsOf: fixture.url(name))
    }

    /// Reads a (mutated) property list the way `inspect` and `migrate` do; a failure must be a
    /// ``PropertyListError`` naming the file and a line (XML) or byte offset (binary).
    static func readPropertyList(_ url: URL, expecting format: PropertyListDocument.Format) throws -> String? {
        do {
            let document = try PropertyListDocument.open(at: url)
            guard document.format == format else { return "read as another format" }
            _ = try document.shape(checkingEveryValue: true)
            try document.validate()
            if try document.hasValue(atKeyPath: "speeches"), try document.elementCount(atKeyPath: "speeches") != nil {
                try document.forEachElement(atKeyPath: "speeches") { _, _ in true }
            }
            return nil
        } catch let error as PropertyListError {
            return unmet([
                (error.path == url.path, "the error names another file"),
                (error.failureKind == .badInput, "the error is not bad input"),
                (error.line != nil || error.offset != nil, "a property list error without a line or byte offset"),
            ], error)
        }
    }

    // MARK: - Models

    /// A model of every element the reader knows: inheritance, every relationship kind, inverses,
    /// user info, uniqueness constraints, fetch indexes, configurations, a composite.
    static let modelContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="v1">
            <entity name="Item" isAbstract="YES">
                <attribute name="title" attributeType="String" defaultValueString="untitled"/>
                <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                <userInfo>
                    <entry key="storekeep.invalidRecordPolicy" value="keep"/>
                </userInfo>
            </entity>
            <entity name="Note" parentEntity="Item">
                <attribute name="body" optional="YES" attributeType="String" minValueString="0" maxValueString="4000"/>
                <attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>
            </entity>
            <entity name="Task" parentEntity="Item">
                <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="priority" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
            </entity>
            <entity name="Tag">
                <attribute name="name" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <userInfo>
                    <entry key="storekeep.seedKey" value="name"/>
                </userInfo>
            </entity>
            <entity name="Project">
                <attribute name="name" attributeType="String"/>
                <attribute name="budget" optional="YES" attributeType="Decimal" defaultValueString="0"/>
                <relationship name="tasks" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
                <fetchIndex name="byName">
                    <fetchIndexElement property="name" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <composite name="Place">
                <attribute name="latitude" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="longitude" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </composite>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Note"/>
                <memberEntity name="Task"/>
                <memberEntity name="Tag"/>
                <memberEntity name="Project"/>
            </configuration>
        </model>

        """

    // MARK: - Core Data stores

    /// A Core Data store as Core Data lays one out: an inheritance family sharing a table, a
    /// to-one with its index, a many-to-many join table, `Z_METADATA` with its plist, and a few
    /// dozen rows of every storage class.
    static func coreDataStore(at url: URL) throws {
        let metadata = try PropertyListSerialization.data(fromPropertyList: ["NSPersistenceFrameworkVersion": 1000, "NSStoreType": "SQLite"],
                                                          format: .binary, options: 0)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRIORITY INTEGER, ZDONE INTEGER,
                    ZPROJECT INTEGER, ZCREATED TIMESTAMP, ZTITLE VARCHAR, ZBODY VARCHAR, ZWEIGHT FLOAT);
                CREATE TABLE ZPROJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZICON BLOB);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                CREATE TABLE Z_1TAGS (Z_1ITEMS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_5TAGS));
                CREATE INDEX ZITEM_ZPROJECT_INDEX ON ZITEM (ZPROJECT);
                CREATE INDEX Z_1TAGS_Z_5TAGS_INDEX ON Z_1TAGS (Z_5TAGS, Z_1ITEMS);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 60), (2, 'Note', 1, 0), (3, 'Task', 1, 0), (4, 'Project', 0, 4), (5, 'Tag', 0, 6);
                """)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'FUZZ-STORE-UUID', ?)", arguments: [metadata])
            for key in 1...4 {
                try db.execute(sql: "INSERT INTO ZPROJECT VALUES (?, 4, 1, ?, ?)", arguments: [key, "project \(key)", Data(repeating: UInt8(key), count: 64)])
            }
            for key in 1...6 { try db.execute(sql: "INSERT INTO ZTAG VALUES (?, 5, 1, ?)", arguments: [key, "tag \(key)"]) }
            for key in 1...60 {
                let isTask = key % 2 == 0
                try db.execute(sql: "INSERT INTO ZITEM VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                    key, isTask ? 3 : 2, isTask ? key % 5 : nil, isTask ? key % 2 : nil, isTask ? 1 + key % 4 : nil,
                    Double(key) * 3600.5, "item \(key) — ünïcødé", isTask ? nil : String(repeating: "body ", count: key), Double(key) / 7,
                ])
                try db.execute(sql: "INSERT INTO Z_1TAGS VALUES (?, ?)", arguments: [key, 1 + key % 6])
            }
        }
        try queue.close()
    }

    /// Opens a (mutated) Core Data store the way `migrate` does, checks the file as `inspect` does,
    /// and reads every record and every row no record stands for; a failure must be a
    /// ``CoreDataStoreError`` naming the store.
    static func readCoreDataStore(_ url: URL) throws -> String? {
        do {
            let reader = try CoreDataStoreReader.open(at: url)
            defer { reader.close() }
            try reader.requireIntact()
            for entity in reader.model.entities where !entity.isAbstract {
                try reader.forEachRecord(entity: entity.name, batchSize: 16) { _ in true }
            }
            for table in reader.unreadRowCounts.keys.sorted() {
                try reader.forEachUnreadRow(in: table) { _, _ in true }
            }
            return nil
        } catch let error as CoreDataStoreError {
            return unmet([
                (error.path == url.path, "the error names another file"),
                (error.failureKind == .badInput, "the error is not bad input"),
            ], error)
        }
    }
}
