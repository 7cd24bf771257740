import Foundation
import GRDB
import Testing

/// Names from files in every identifier position, through the built binary: a Core Data store's
/// entity (and so its table) and column, a model's entity, attribute, relationship and
/// configuration, and a mapping's keys. Each name is carried exactly (the store holds it as it was,
/// `check` finds nothing, `digest` reads it), or refused with exit 65 naming it; no name runs SQL of
/// its own: no table and no file appears that storekeep did not mean to make.
@Suite("hostile names in every identifier position, through the binary")
struct HostileNameTests {
    struct Name: Sendable, CustomStringConvertible {
        let description: String
        let text: String
    }

    /// Names that must be carried exactly.
    static let names: [Name] = [
        .init(description: "a double quote", text: "q\"uote"),
        .init(description: "a single quote", text: "it's"),
        .init(description: "a semicolon", text: "semi;colon"),
        .init(description: "a comment mark", text: "dash--dash"),
        .init(description: "the issue's injection", text: "X\" TEXT); CREATE TABLE PWNED (V); --"),
        .init(description: "an ATTACH of a file outside the store's folder", text: "X\" TEXT); ATTACH DATABASE 'escape' AS E; CREATE TABLE E.T(V); --"),
        .init(description: "10,000 characters", text: String(repeating: "n", count: 10_000)),
        .init(description: "non-ASCII letters", text: "Ünïcødé 名前"),
    ]

    /// A name SQLite cannot keep: refused, never cut short.
    static let nul = "Ta\u{0}sk"

    // MARK: - Core Data store: entity (and its table), column

    /// Core Data's bookkeeping tables, `Z_PRIMARYKEY` empty and `Z_METADATA` of store `uuid`.
    static func coreDataBookkeeping(uuid: String) -> String {
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        INSERT INTO Z_METADATA VALUES (1, '\(uuid)', NULL);
        """
    }

    /// A Core Data store of one entity `entity` (table `Z` + its name upper-cased, as Core Data
    /// names it, unless `table` is given) with the column `column`, holding three rows.
    static func coreDataStore(at path: String, entity: String, column: String, table: String? = nil) throws {
        let table = table ?? "Z" + entity.uppercased()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: coreDataBookkeeping(uuid: "HOSTILE-UUID") + """
                CREATE TABLE \(quoted(table)) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(quoted(column)) VARCHAR);
                """)
            // As SQL text: a bound Swift string would be cut at a NUL on its way in.
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (1, \(literal(entity)), 0, 3)")
            for key in 1...3 {
                try db.execute(sql: "INSERT INTO \(quoted(table)) VALUES (?, 1, 1, ?)", arguments: [key, "value \(key)"])
            }
        }
        try queue.close()
    }

    /// The name as a SQL string literal, a NUL written as `char(0)`.
    static func literal(_ name: String) -> String {
        name.components(separatedBy: "\u{0}").map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: " || char(0) || ")
    }

    /// The name as a SQL identifier, written out here (not with the helper under test).
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    @Test("a Core Data entity (and so its table) named with it migrates exactly", arguments: names)
    func coreDataEntity(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        try Self.coreDataStore(at: work.path("Hostile.sqlite"), entity: name.text, column: "ZTITLE")
        try work.migrateAndCheck(work.path("Hostile.sqlite"), entity: name.text, property: "TITLE", records: 3)
    }

    @Test("a Core Data column named with it migrates exactly (its attribute is the name without the Z)", arguments: names)
    func coreDataColumn(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        // Core Data writes column names upper-cased; the inferred attribute is the name as stored.
        try Self.coreDataStore(at: work.path("Hostile.sqlite"), entity: "Task", column: "Z" + name.text.uppercased())
        try work.migrateAndCheck(work.path("Hostile.sqlite"), entity: "Task", property: name.text.uppercased(), records: 3)
    }

    @Test("a NUL in a Core Data entity name is refused naming it; a column cannot even hold one")
    func coreDataNul() throws {
        let work = try Workspace()
        defer { work.remove() }
        // The table is that of the name cut at the NUL: read as a C string, the entity would be "Ta".
        try Self.coreDataStore(at: work.path("Entity.sqlite"), entity: Self.nul, column: "ZTITLE", table: "ZTA")
        let entity = try work.run(["migrate", work.path("Entity.sqlite"), "--to", work.path("t.store")])
        #expect(entity.status == 65, "\(entity.description.prefix(2000))")
        #expect(entity.stderr.contains("\"Ta\\0sk\"") && entity.stderr.contains("NUL"), "\(entity.description.prefix(2000))")
        #expect(!FileManager.default.fileExists(atPath: work.path("t.store")))

        // SQLite ends a statement at a NUL, so no CREATE TABLE makes such a column: written into
        // the schema by hand, it leaves a file whose schema SQLite cannot read.
        try Self.coreDataStore(at: work.path("Column.sqlite"), entity: "Task", column: "ZAB")
        let damaged = try DatabaseQueue(path: work.path("Column.sqlite"))
        try damaged.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: """
                UPDATE sqlite_master SET sql = 'CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "ZA' || char(0) || 'B" VARCHAR)'
                WHERE name = 'ZTASK'
                """)
        }
        try damaged.close()
        let column = try work.run(["migrate", work.path("Column.sqlite"), "--to", work.path("c.store")])
        #expect(column.status == 65, "\(column.description.prefix(2000))")
        #expect(column.stderr.contains(work.path("Column.sqlite")) && column.stderr.contains("ZTASK"), "\(column.description.prefix(2000))")
        #expect(!FileManager.default.fileExists(atPath: work.path("c.store")))
        try work.expectNothingElse()
    }

    // MARK: - Model: entity, attribute, relationship, configuration

    /// An Xcode model version holding `name` in every position: entity `name` with attribute
    /// `name`, entity `Other` with a to-one relationship `name` to it, and configuration `name`
    /// listing both; `extra` adds an optional attribute (the next version, inferable).
    static func modelContents(_ name: String, extra: Bool = false) -> String {
        let n = xmlEscaped(name)
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="\(n)">
                    <attribute name="\(n)" optional="YES" attributeType="String"/>
            \(extra ? "        <attribute name=\"extra\" optional=\"YES\" attributeType=\"String\"/>\n" : "")    </entity>
                <entity name="Other">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="\(n)" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\(n)"/>
                </entity>
                <configuration name="\(n)">
                    <memberEntity name="\(n)"/>
                    <memberEntity name="Other"/>
                </configuration>
            </model>

            """
    }

    static func xmlEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A two-version bundle `Hostile.xcdatamodeld` of ``modelContents(_:extra:)``; returns its path.
    static func modelBundle(_ name: String, in work: Workspace) throws -> String {
        let bundle = work.directory.appendingPathComponent("Hostile.xcdatamodeld")
        for (version, extra) in [("Hostile 1", false), ("Hostile 2", true)] {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(modelContents(name, extra: extra).utf8).write(to: folder.appendingPathComponent("contents"))
        }
        return bundle.path
    }

    @Test("a model whose entity, attribute, relationship and configuration are named with it: init, apply, check, digest, migrate", arguments: names)
    func modelNames(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        let bundle = try Self.modelBundle(name.text, in: work)
        let store = work.path("s.store")
        let made = try work.run(["init", store, "--model", bundle, "--model-version", "Hostile 1", "--content-name", "hostile"])
        #expect(made.status == 0, "\(made.description.prefix(2000))")

        var lines = Data()
        for operation: [String: Any] in [
            ["op": "insert", "entity": name.text, "id": "N1", "values": [name.text: "exact \(name.text.prefix(20))"]],
            ["op": "insert", "entity": "Other", "id": "O1", "values": ["title": "other"], "toOne": [name.text: "N1"]],
        ] {
            lines += try JSONSerialization.data(withJSONObject: operation, options: [.sortedKeys]) + Data("\n".utf8)
        }
        let changes = work.path("changes.jsonl")
        try lines.write(to: URL(fileURLWithPath: changes))
        let applied = try work.run(["apply", store, changes])
        #expect(applied.status == 0, "\(applied.description.prefix(2000))")

        try work.expectStoreHolds(store, entity: name.text, property: name.text, records: 1)
        let rows = try work.read(store) { db in
            try Row.fetchAll(db, sql: "SELECT entity, property, kind FROM sk_column WHERE property = ? ORDER BY entity", arguments: [name.text])
        }
        let mapped = Set(rows.map { ($0[0] as String? ?? "") + "/" + ($0[2] as String? ?? "") })
        #expect(mapped == [name.text + "/attribute", "Other/to-one"], "sk_column maps the attribute and the relationship named \(name)")

        let target = work.path("t.store")
        let migrated = try work.run(["migrate", store, "--to", target, "--model", bundle])
        #expect(migrated.status == 0, "\(migrated.description.prefix(2000))")
        try work.expectStoreHolds(target, entity: name.text, property: name.text, records: 1)
        let value = try work.read(target) { db in
            try String.fetchOne(db, sql: "SELECT \(Self.quoted("a_" + name.text)) FROM \(Self.quoted("e_" + name.text))")
        }
        #expect(value == "exact \(name.text.prefix(20))", "the value is carried under the name \(name)")
        try work.expectNothingElse()
    }

    @Test("a NUL in a model's entity, attribute, relationship or configuration name: the model is refused naming the file and line")
    func modelNul() throws {
        let work = try Workspace()
        defer { work.remove() }
        for position in 0..<4 {
            // XML cannot hold a NUL: written as a character reference, the parser refuses it.
            var lines = Self.modelContents("Task").components(separatedBy: "\n")
            let line = [2, 3, 7, 9][position]
            lines[line] = lines[line].replacingOccurrences(of: "name=\"Task\"", with: "name=\"Ta&#0;sk\"")
            let folder = work.directory.appendingPathComponent("Nul\(position).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(lines.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("contents"))
            let result = try work.run(["init", work.path("n\(position).store"), "--model", folder.path, "--content-name", "n"])
            #expect(result.status == 65, "\(result.description.prefix(2000))")
            #expect(result.stderr.contains("\(folder.path)/contents:\(line + 1):"), "\(result.description.prefix(2000))")
            #expect(!FileManager.default.fileExists(atPath: work.path("n\(position).store")))
        }
        try work.expectNothingElse()
    }

    // MARK: - Mapping keys

    @Test("a mapping whose entity, attribute and source keys are named with it migrates a property list exactly", arguments: names)
    func mappingKeys(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        let bundle = try Self.modelBundle(name.text, in: work)
        // A key path joins keys with '.': a name holding one cannot be a source key (docs/limits.md).
        let source = name.text.contains(".") ? "plain" : name.text
        let key = Self.xmlEscaped(source)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict><key>\(key)</key><array>
            <dict><key>\(key)</key><string>first</string></dict>
            <dict><key>\(key)</key><string>second</string></dict>
            </array></dict>
            </plist>

            """
        let data = work.path("data.plist")
        try Data(plist.utf8).write(to: URL(fileURLWithPath: data))
        let mapping = work.path("hostile.mapping.yaml")
        // Explicit keys (`? key`): YAML limits a plain key to 1024 characters.
        try Data("""
            mapping: hostile
            model: Hostile.xcdatamodeld
            modelVersion: Hostile 1
            entities:
              - entity: \(Self.yamlQuoted(name.text))
                from: \(Self.yamlQuoted(source))
                attributes:
                  ? \(Self.yamlQuoted(name.text))
                  : \(Self.yamlQuoted(source))

            """.utf8).write(to: URL(fileURLWithPath: mapping))
        let target = work.path("t.store")
        let migrated = try work.run(["migrate", data, "--to", target, "--mapping", mapping])
        #expect(migrated.status == 0, "\(migrated.description.prefix(2000))")
        #expect(FileManager.default.fileExists(atPath: bundle))
        try work.expectStoreHolds(target, entity: name.text, property: name.text, records: 2)
        let values = try work.read(target) { db in
            try String.fetchAll(db, sql: "SELECT \(Self.quoted("a_" + name.text)) FROM \(Self.quoted("e_" + name.text)) ORDER BY 1")
        }
        #expect(values == ["first", "second"], "the values are carried under the name \(name)")
        try work.expectNothingElse()
    }

    @Test("a NUL in a mapping's entity key is refused naming the mapping's line")
    func mappingNul() throws {
        let work = try Workspace()
        defer { work.remove() }
        _ = try Self.modelBundle("Task", in: work)
        let data = work.path("data.plist")
        try Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>Task</key><array><dict/></array></dict></plist>\n".utf8)
            .write(to: URL(fileURLWithPath: data))
        let mapping = work.path("nul.mapping.yaml")
        try Data("mapping: nul\nmodel: Hostile.xcdatamodeld\nentities:\n  - entity: \"Ta\\0sk\"\n    from: Task\n".utf8)
            .write(to: URL(fileURLWithPath: mapping))
        let result = try work.run(["migrate", data, "--to", work.path("t.store"), "--mapping", mapping])
        #expect(result.status == 65, "\(result.description.prefix(2000))")
        #expect(result.stderr.contains("\(mapping):4"), "\(result.description.prefix(2000))")
        #expect(result.stderr.contains("Ta\\0sk"), "the name is shown with its NUL escaped: \(result)")
        #expect(!FileManager.default.fileExists(atPath: work.path("t.store")))
    }

    /// `text` as a double-quoted YAML scalar.
    static func yamlQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension HostileNameTests {
    /// A folder for one test's files and a working directory for the binary, both checked for
    /// anything storekeep did not mean to make.
    struct Workspace {
        let folder: TemporaryDirectory
        let cwd: TemporaryDirectory
        var directory: URL { folder.url }

        init() throws {
            folder = try TemporaryDirectory()
            cwd = try TemporaryDirectory()
        }

        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

        func remove() {
            folder.remove()
            cwd.remove()
        }

        /// Runs the binary in the working directory.
        func run(_ arguments: [String]) throws -> ProcessResult {
            try StorekeepProcess.run(arguments, in: cwd.url, timeout: 120)
        }

        func read<T>(_ store: String, _ body: (Database) throws -> T) throws -> T {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: store, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(body)
        }

        /// Migrates `source` (a Core Data store) and checks the result.
        func migrateAndCheck(_ source: String, entity: String, property: String, records: Int) throws {
            let target = path("t.store")
            let migrated = try run(["migrate", source, "--to", target, "--json"])
            #expect(migrated.status == 0, "\(migrated.description.prefix(2000))")
            #expect(try migrated.jsonObject()["verified"] as? Bool == true, "\(migrated.description.prefix(2000))")
            try expectStoreHolds(target, entity: entity, property: property, records: records)
            let values = try read(target) { db in
                try String.fetchAll(db, sql: "SELECT \(quoted("a_" + property)) FROM \(quoted("e_" + entity)) ORDER BY 1")
            }
            #expect(values == ["value 1", "value 2", "value 3"], "the values are read under the column of \(property.prefix(40))")
            try expectNothingElse()
        }

        /// The store maps `entity`.`property` under exactly these names, holds `records` records of
        /// `entity`, has only storekeep's tables, and `check` and `digest` read it.
        func expectStoreHolds(_ store: String, entity: String, property: String, records: Int) throws {
            let mapped = try read(store) { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_column WHERE entity = ? AND property = ?", arguments: [entity, property]) ?? 0
            }
            #expect(mapped == 1, "sk_column maps \(entity.prefix(40)).\(property.prefix(40)) exactly")
            let tables = try read(store) { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            #expect(tables.allSatisfy { $0.hasPrefix("sk_") || $0.hasPrefix("e_") || $0.hasPrefix("j_") }, "\(tables.map { $0.prefix(60) })")
            #expect(tables.contains("e_" + entity))
            #expect(try read(store) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(quoted("e_" + entity)) WHERE _entity = ?", arguments: [entity]) } == records)
            let check = try run(["check", store, "--full"])
            #expect(check.status == 0, "\(check.description.prefix(2000))")
            let digest = try run(["digest", store, "--json"])
            #expect(digest.status == 0, "\(digest.description.prefix(2000))")
        }

        /// No file appeared in the working directory, and none in the folder but the inputs and stores.
        func expectNothingElse() throws {
            #expect(try FileManager.default.contentsOfDirectory(atPath: cwd.url.path).isEmpty, "the working directory was written to")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            let expected = [".sqlite", ".store", ".jsonl", ".plist", ".yaml", ".xcdatamodeld", ".xcdatamodel", ".lock", ".rejected.jsonl", ".blobs"]
            let unexpected = files.filter { file in !expected.contains { file.hasSuffix($0) } && !file.contains(".store-") && !file.contains(".sqlite-") }
            #expect(unexpected.isEmpty, "files storekeep did not mean to make: \(unexpected)")
            #expect(!files.contains { $0.lowercased().hasPrefix("escape") }, "\(files)")
        }
    }
}

private func quoted(_ name: String) -> String { HostileNameTests.quoted(name) }
