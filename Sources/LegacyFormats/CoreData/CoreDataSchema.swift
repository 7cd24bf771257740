import Foundation
import GRDB
import ObjectModel

/// What the SQLite file itself says: `Z_PRIMARYKEY`, `Z_METADATA`, tables with their columns, and
/// index names. Read once when the store is opened.
struct CoreDataSchema: Sendable {
    /// One `Z_PRIMARYKEY` row.
    struct EntityRow: Sendable, Equatable {
        /// `Z_ENT`.
        var number: Int64
        /// `Z_NAME`, the entity name in its original case.
        var name: String
        /// `Z_SUPER` (0 for a root entity).
        var superNumber: Int64
        /// The root table, named after the root entity's name in `Z_PRIMARYKEY` (set once read).
        var table: String = ""
    }

    /// One column: its name and declared type, upper-cased.
    struct Column: Sendable, Equatable {
        var name: String
        var declaredType: String
        /// Its position in the table's primary key (0 when it is not part of it).
        var primaryKeyPosition: Int64 = 0
    }

    /// Rows of `Z_PRIMARYKEY` that name entities with a table (history and CloudKit bookkeeping
    /// entities, numbered from 16000 and kept in `A…` tables, are left out).
    var entityRows: [EntityRow]
    /// `Z_METADATA.Z_VERSION`.
    var storeVersion: Int64
    /// `Z_METADATA.Z_UUID`.
    var storeUUID: String
    /// `NSPersistenceFrameworkVersion` from `Z_METADATA.Z_PLIST`.
    var frameworkVersion: Int64?
    /// The entity names `NSStoreModelVersionHashes` lists in `Z_METADATA.Z_PLIST` (original case).
    var hashedEntityNames: Set<String>
    /// Every table's columns in order, by table name.
    var columns: [String: [Column]]
    /// Every index name.
    var indexNames: Set<String>
    /// `Z_MODELCACHE.Z_CONTENT`, when the table exists and holds one.
    var modelCache: Data?
    /// The tables declared `WITHOUT ROWID`.
    var withoutRowIDTables: Set<String> = []

    /// Reads the schema; throws a message (no path) when the file is not a Core Data store.
    static func read(_ db: Database) throws -> CoreDataSchema {
        var columns: [String: [Column]] = [:]
        // Names are read as bytes: GRDB reads text as a C string, which stops at a NUL and mends
        // bytes that are not UTF-8, so a name would be changed without a word.
        let tables = try Row.fetchAll(db, sql: "SELECT CAST(name AS BLOB) FROM sqlite_master WHERE type = 'table'").map {
            try exactName($0, at: 0, what: "a table")
        }
        for table in tables {
            let rows = try Row.fetchAll(db, sql: "SELECT CAST(name AS BLOB), type, pk FROM pragma_table_info(?)", arguments: [table])
            columns[table] = try rows.map {
                Column(name: try exactName($0, at: 0, what: "a column of table \(table.shownInMessage)"),
                       declaredType: ($0.stored(at: 1, as: String.self) ?? "").uppercased(),
                       primaryKeyPosition: $0.stored(at: 2, as: Int64.self) ?? 0)
            }
        }
        let withoutRowID = Set(try Row.fetchAll(db, sql: "SELECT CAST(name AS BLOB), sql FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            guard let sql = row.stored(at: 1, as: String.self) else { return nil }
            return sql.uppercased().replacingOccurrences(of: " ", with: "").contains("WITHOUTROWID") ? try exactName(row, at: 0, what: "a table") : nil
        })
        guard columns["Z_PRIMARYKEY"] != nil, columns["Z_METADATA"] != nil else {
            throw SchemaProblem.notCoreData
        }
        let indexNames = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
        var entityRows: [EntityRow] = []
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, CAST(Z_NAME AS BLOB), Z_SUPER, typeof(Z_NAME) FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard let number = row.stored(at: 0, as: Int64.self), ["text", "blob"].contains(row.stored(at: 3, as: String.self)) else { continue }
            let name = try exactName(row, at: 1, what: "the entity name of Z_PRIMARYKEY row Z_ENT \(number)")
            if let reason = name.unusableNameReason {
                throw SchemaProblem.unusableName(what: "the entity name of Z_PRIMARYKEY row Z_ENT \(number)", name: name, reason: reason)
            }
            entityRows.append(EntityRow(number: number, name: name, superNumber: row.stored(at: 2, as: Int64.self) ?? 0))
        }
        guard let metadataRow = try Row.fetchOne(db, sql: "SELECT Z_VERSION, CAST(Z_UUID AS BLOB), Z_PLIST, typeof(Z_UUID) FROM Z_METADATA LIMIT 1") else {
            throw SchemaProblem.noMetadata
        }
        var metadata: [String: Any] = [:]
        if let plist = metadataRow.stored(at: 2, as: Data.self),
            let decoded = try? PropertyListSerialization.propertyList(from: plist, options: [], format: nil) as? [String: Any] {
            metadata = decoded
        }
        var modelCache: Data?
        if columns["Z_MODELCACHE"] != nil {
            modelCache = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")?.stored(at: 0, as: Data.self)
        }
        var schema = CoreDataSchema(
            entityRows: entityRows, storeVersion: metadataRow.stored(at: 0, as: Int64.self) ?? 0,
            // Part of every global ID: read exactly, like a name.
            storeUUID: ["text", "blob"].contains(metadataRow.stored(at: 3, as: String.self))
                ? try exactName(metadataRow, at: 1, what: "the store UUID in Z_METADATA") : "",
            frameworkVersion: (metadata["NSPersistenceFrameworkVersion"] as? NSNumber)?.int64Value,
            hashedEntityNames: Set((metadata["NSStoreModelVersionHashes"] as? [String: Any])?.keys.map { $0 } ?? []),
            columns: columns, indexNames: indexNames,
            modelCache: modelCache, withoutRowIDTables: withoutRowID)
        for index in schema.entityRows.indices {
            schema.entityRows[index].table = schema.rootTable(ofEntity: schema.entityRows[index].number)
        }
        schema.entityRows = schema.entityRows.filter { $0.number < 16000 }
        // An entity whose table is gone had rows no reader can see: the store is damaged, and
        // dropping the entity from the model would lose them without a word.
        if let lost = schema.entityRows.first(where: { schema.columns[$0.table] == nil }) {
            throw SchemaProblem.missingTable(entity: lost.name, number: lost.number, table: lost.table)
        }
        return schema
    }

    /// The name at `index` of `row` (read as bytes), exactly: a name that is not UTF-8, or holds a
    /// NUL, is refused rather than changed.
    private static func exactName(_ row: Row, at index: Int, what: String) throws -> String {
        let bytes = row.stored(at: index, as: Data.self) ?? Data()
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw SchemaProblem.unusableName(what: what, name: String(decoding: bytes, as: UTF8.self), reason: "is not valid UTF-8")
        }
        if bytes.contains(0) {
            throw SchemaProblem.unusableName(what: what, name: name, reason: "holds a NUL character (U+0000), which SQLite cannot keep in a name")
        }
        return name
    }

    /// Why a SQLite file is not a readable Core Data store.
    enum SchemaProblem: Error {
        case notCoreData
        case noMetadata
        /// A table, column or entity name that cannot be carried exactly (`reason` says why).
        case unusableName(what: String, name: String, reason: String)
        /// `Z_PRIMARYKEY` names an entity whose table the file does not have.
        case missingTable(entity: String, number: Int64, table: String)
    }

    /// The row numbered `number`.
    func entityRow(_ number: Int64) -> EntityRow? { entityRows.first { $0.number == number } }

    /// The row named `name`.
    func entityRow(named name: String) -> EntityRow? { entityRows.first { $0.name == name } }

    /// The root table of entity `number`.
    func table(ofEntity number: Int64) -> String { entityRow(number)?.table ?? "" }

    /// `Z` + the upper-cased `Z_PRIMARYKEY` name of the root of entity `number`.
    private func rootTable(ofEntity number: Int64) -> String {
        var current = number
        var seen: Set<Int64> = []
        var name = "?"
        while let row = entityRow(current), !seen.contains(current) {
            seen.insert(current)
            name = row.name
            if row.superNumber == 0 { break }
            current = row.superNumber
        }
        return "Z" + name.uppercased()
    }

    /// The schema with entities renamed as `model` renamed them: a `Z_PRIMARYKEY` name that is not
    /// in the model but is the renaming identifier (`elementID`) of a model entity takes that
    /// entity's name (Core Data's in-place migration keeps the old name there). Tables keep their names.
    func renamed(for model: ManagedModel) -> CoreDataSchema {
        var copy = self
        for index in copy.entityRows.indices where model.entity(named: copy.entityRows[index].name) == nil {
            let old = copy.entityRows[index].name
            if let renamed = model.entities.first(where: { $0.elementID == old && entityRow(named: $0.name) == nil }) {
                copy.entityRows[index].name = renamed.name
            }
        }
        return copy
    }

    /// `base`, or the one column named `base` followed by digits (Core Data numbers colliding names).
    func column(_ base: String, in table: String) -> String? {
        guard let names = columns[table]?.map(\.name) else { return nil }
        if names.contains(base) { return base }
        let numbered = names.filter { $0.hasPrefix(base) && $0.count > base.count && $0.dropFirst(base.count).allSatisfy(\.isNumber) }
        return numbered.count == 1 ? numbered[0] : nil
    }

    /// Whether `table`'s `Z_PK` is its row id (declared `INTEGER PRIMARY KEY`, as Core Data
    /// declares it), so that every `Z_PK` is an integer. Otherwise a row's `Z_PK` may be text or a
    /// fraction, and readers add ``keyIsIntegerCondition``.
    func primaryKeyIsRowID(of table: String) -> Bool {
        guard let columns = columns[table], !withoutRowIDTables.contains(table) else { return false }
        let keys = columns.filter { $0.primaryKeyPosition > 0 }
        return keys.count == 1 && keys[0].name == "Z_PK" && keys[0].declaredType == "INTEGER"
    }

    /// The SQL condition a row of `table` meets when its `Z_PK` is an integer (`nil` when every
    /// row's is: ``primaryKeyIsRowID(of:)``).
    func keyIsIntegerCondition(of table: String) -> String? {
        primaryKeyIsRowID(of: table) ? nil : "typeof(Z_PK) = 'integer'"
    }

    /// Whether `table` has a column named `column`.
    func has(_ table: String, column: String) -> Bool {
        columns[table]?.contains { $0.name == column } ?? false
    }

    /// The tables that look like many-to-many join tables: `Z_<n><NAME>` with two or three columns.
    var joinTables: [String] {
        columns.keys.filter { name in
            guard name.hasPrefix("Z_"), let first = name.dropFirst(2).first, first.isNumber else { return false }
            return true
        }.sorted()
    }

}
