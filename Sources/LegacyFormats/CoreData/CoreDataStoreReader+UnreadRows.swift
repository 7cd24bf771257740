import GRDB
import GRDBSQLite
import ObjectModel

/// The rows of an entity table that no record stands for.
///
/// ``CoreDataStoreReader/forEachRecord(entity:afterPrimaryKey:batchSize:_:)`` reads, for each
/// entity, the rows whose `Z_ENT` is the entity's number and whose `Z_PK` is a positive integer.
/// A table may hold rows that meet that for no entity the model can have records of: a `Z_ENT`
/// that names no entity, names an abstract one or one kept in another table, is NULL or text; a
/// `Z_PK` that is not a positive integer. Core Data writes none of these, but a damaged or
/// hand-edited store can hold them, and they must not vanish from a migration: these methods list
/// them, so that a migration rejects each one with its reason and counts it.
extension CoreDataStoreReader {
    /// The tables that hold entity rows (each entity tree's root table), sorted.
    public var entityTables: [String] {
        Array(Set(schema.entityRows.map(\.table))).sorted()
    }

    /// The entity whose tree keeps its rows in `table` (the root of that tree, as `Z_PRIMARYKEY`
    /// names it), or `nil` for a table that is not an entity table.
    public func rootEntity(ofTable table: String) -> String? {
        schema.entityRows.first { $0.table == table && $0.superNumber == 0 }?.name
            ?? schema.entityRows.first { $0.table == table }?.name
    }

    /// The number of rows in `table`, counted now (`COUNT(*)`, whatever the rows hold).
    ///
    /// - Throws: ``CoreDataStoreError`` when SQLite cannot count them.
    public func rowCount(of table: String) throws -> Int {
        do {
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier)") ?? 0
            }
        } catch let error as DatabaseError {
            throw Self.readingError(error, path: path, what: "count the rows of \(table)")
        }
    }

    /// The number of rows ``forEachRecord(entity:afterPrimaryKey:batchSize:_:)`` reads for `entity`
    /// (its `Z_ENT`, a positive integer `Z_PK`), counted now; 0 for an entity the store does not map.
    ///
    /// - Throws: ``CoreDataStoreError`` when SQLite cannot count them.
    public func recordRowCount(of entity: String) throws -> Int {
        guard let table = mapping.entities[entity]?.table else { return 0 }
        do {
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) WHERE \(rowCondition(of: entity)) AND Z_PK > 0") ?? 0
            }
        } catch let error as DatabaseError {
            throw Self.readingError(error, path: path, what: "count the rows of \(entity) in \(table)")
        }
    }

    /// Calls `body` with each row of `table` that no record of an entity with records of its own
    /// stands for (see above), in `Z_PK` order: its place in that order (1, 2, …) and why it is no
    /// record, naming its `Z_PK` and `Z_ENT`. Resume after the place `afterPlace`; stop by
    /// returning `false`.
    ///
    /// - Throws: ``CoreDataStoreError`` when SQLite fails; and whatever `body` throws.
    public func forEachUnreadRow(in table: String, afterPlace: Int64 = 0, _ body: (_ place: Int64, _ reason: String) throws -> Bool) throws {
        let sql = """
            SELECT Z_PK, Z_ENT FROM \(table.quotedSQLIdentifier) WHERE NOT coalesce(\(readCondition(ofTable: table)), 0)
            ORDER BY Z_PK LIMIT -1 OFFSET ?
            """
        var rows: [(DatabaseValue, DatabaseValue)] = []
        do {
            try queue.read { db in
                try Self.forEachRow(in: db, sql: sql, arguments: [max(afterPlace, 0)]) { row in
                    rows.append((Self.rawValue(row, 0), Self.rawValue(row, 1)))
                    return true
                }
            }
        } catch let error as DatabaseError {
            throw Self.readingError(error, path: path, what: "read the rows of \(table)")
        }
        var place = max(afterPlace, 0)
        for (key, number) in rows {
            place += 1
            guard try body(place, unreadReason(table: table, key: key, number: number)) else { return }
        }
    }

    /// The SQL condition that the rows ``forEachRecord(entity:afterPrimaryKey:batchSize:_:)``
    /// reads for `entity` meet (with `Z_PK > after` added by the caller).
    func rowCondition(of entity: String) -> String {
        guard let mapping = mapping.entities[entity] else { return "0" }
        let key = schema.keyIsIntegerCondition(of: mapping.table).map { " AND \($0)" } ?? ""
        return "Z_ENT = \(mapping.number)\(key)"
    }

    /// The SQL condition that the rows of `table` some record is read from meet.
    func readCondition(ofTable table: String) -> String {
        Self.readCondition(ofTable: table, schema: schema, mapping: mapping, model: model)
    }

    /// The SQL condition that the rows of `table` some record is read from meet: a `Z_ENT` of an
    /// entity with records of its own kept there, and a positive integer `Z_PK`.
    static func readCondition(ofTable table: String, schema: CoreDataSchema, mapping: StoreMapping, model: ManagedModel) -> String {
        let numbers = mapping.entities.values
            .filter { $0.table == table && model.entity(named: $0.name).map { !$0.isAbstract } == true }
            .map(\.number).sorted().map(String.init).joined(separator: ", ")
        let key = schema.keyIsIntegerCondition(of: table).map { " AND \($0)" } ?? ""
        return "(Z_ENT IN (\(numbers)) AND Z_PK > 0\(key))"
    }

    /// How many rows of each entity table no record stands for (tables without such rows left out).
    static func countUnreadRows(schema: CoreDataSchema, mapping: StoreMapping, model: ManagedModel, db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in Set(schema.entityRows.map(\.table)).sorted() {
            let condition = readCondition(ofTable: table, schema: schema, mapping: mapping, model: model)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) WHERE NOT coalesce(\(condition), 0)") ?? 0
            if count > 0 { counts[table] = count }
        }
        return counts
    }

    /// Why the row of `table` with `Z_PK` `key` and `Z_ENT` `number` is no record.
    private func unreadReason(table: String, key: DatabaseValue, number: DatabaseValue) -> String {
        guard case .int64(let primaryKey) = key.storage else {
            return "\(table) holds a row whose Z_PK is \(Self.describe(key)) (Z_ENT \(Self.compact(number))): Core Data keys every row by a positive integer"
        }
        let row = "\(table) row Z_PK \(primaryKey)"
        guard primaryKey > 0 else {
            return "\(row) (Z_ENT \(Self.compact(number))) has no positive primary key, which every Core Data row has"
        }
        guard case .int64(let entityNumber) = number.storage else {
            return "\(row) has Z_ENT \(Self.compact(number)), which names no entity"
        }
        guard let entity = schema.entityRow(entityNumber) else {
            return "\(row) has Z_ENT \(entityNumber), which names no entity in Z_PRIMARYKEY"
        }
        if entity.table != table {
            return "\(row) has Z_ENT \(entityNumber) (\(entity.name)), whose rows are kept in \(entity.table), not in \(table)"
        }
        guard let description = model.entity(named: entity.name), mapping.entities[entity.name] != nil else {
            return "\(row) has Z_ENT \(entityNumber) (\(entity.name)), an entity the model it is read with does not have"
        }
        if description.isAbstract {
            return "\(row) has Z_ENT \(entityNumber) (\(entity.name)), an abstract entity, which has no records of its own"
        }
        return "\(row) (Z_ENT \(entityNumber), \(entity.name)) is not read as a record"
    }

    /// A SQLite failure while reading: damage is bad input, anything else an I/O failure.
    static func readingError(_ error: DatabaseError, path: String, what: String) -> CoreDataStoreError {
        let damaged = [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_ERROR].contains(error.resultCode)
        return CoreDataStoreError(
            path: path, problem: "SQLite cannot \(what): \(error.message ?? "\(error.resultCode)")",
            hint: damaged ? "the store is damaged (or not as Core Data writes it); restore it from a backup" : "check the disk and retry; the source is never modified",
            failureKind: damaged ? .badInput : .ioFailure)
    }
}
