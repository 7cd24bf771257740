import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

extension CoreDataStoreReader {
    /// Calls `body` with each record of exactly `entity` (not its sub-entities) whose primary key is
    /// greater than `afterPrimaryKey`, in primary-key order, reading `batchSize` rows at a time.
    ///
    /// Stop early by returning `false`; resume later by passing the last primary key seen. `body` is
    /// called outside any database access, so it may use the reader again.
    ///
    /// - Throws: ``CoreDataStoreError`` `.usage` for an entity the store does not have, `.missingInput`
    ///   for a missing external-storage file, `.ioFailure` when SQLite fails; and whatever `body` throws.
    public func forEachRecord(
        entity: String, afterPrimaryKey: Int64 = 0, batchSize: Int = 1000, _ body: (CoreDataRecord) throws -> Bool
    ) throws {
        guard let entityMapping = mapping.entities[entity] else {
            throw CoreDataStoreError(
                path: path, problem: "the store has no entity named \(entity)",
                hint: "entities: \(mapping.entities.keys.sorted().joined(separator: ", "))", failureKind: .usage)
        }
        var after = afterPrimaryKey
        let limit = max(1, batchSize)
        while true {
            let batch = try readBatch(entityMapping, after: after, limit: limit)
            for record in batch where try !body(record) { return }
            guard batch.count == limit, let last = batch.last else { return }
            after = last.primaryKey
        }
    }

    private func readBatch(_ entity: StoreMapping.EntityMapping, after: Int64, limit: Int) throws -> [CoreDataRecord] {
        do {
            return try queue.read { db in
                var columns = ["Z_PK"] + entity.attributes.map(\.column) + entity.toOnes.map(\.column)
                columns += entity.toOnes.compactMap(\.entityColumn)
                columns += entity.toOnes.compactMap(\.orderColumn)
                let list = columns.map(\.quotedSQLIdentifier).joined(separator: ", ")
                let sql = "SELECT \(list) FROM \(entity.table.quotedSQLIdentifier) WHERE \(rowCondition(of: entity.name)) AND Z_PK > ? ORDER BY Z_PK LIMIT ?"
                // Rows are read through the C API: a batch is thousands of rows, and values are
                // decoded straight from the columns without an intermediate row object.
                var records: [CoreDataRecord] = []
                records.reserveCapacity(limit)
                var prefixes = GlobalIDPrefixes(storeUUID: storeUUID)
                let targets = targetEntities(of: entity)
                try Self.forEachRow(in: db, sql: sql, arguments: [after, Int64(limit)]) { statement in
                    records.append(try record(from: statement, entity: entity, targets: targets, prefixes: &prefixes))
                    return true
                }
                guard !entity.toManys.isEmpty, let first = records.first?.primaryKey, let last = records.last?.primaryKey else { return records }
                let positions = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.primaryKey, $0) })
                for toMany in entity.toManys {
                    let found = try members(of: toMany, from: first, through: last, db: db)
                    for (owner, targets) in found.members {
                        if let position = positions[owner] { records[position].toMany[toMany.name] = targets }
                    }
                    for (owner, problem) in found.problems {
                        if let position = positions[owner], records[position].problem == nil { records[position].problem = problem }
                    }
                }
                return records
            }
        } catch let error as CoreDataStoreError {
            throw error
        } catch let error as DatabaseError {
            throw Self.readingError(error, path: path, what: "read the records of \(entity.name)")
        }
    }

    /// For each to-one of `entity` kept with an entity column, the entities its target may be, by
    /// `Z_ENT`: the destination and its sub-entities (empty for the others).
    private func targetEntities(of entity: StoreMapping.EntityMapping) -> [[Int64: String]] {
        entity.toOnes.map { toOne in
            guard toOne.entityColumn != nil else { return [:] }
            let names = [toOne.destination] + model.descendants(of: toOne.destination).map(\.name)
            return Dictionary(names.compactMap { name in schema.entityRow(named: name).map { ($0.number, name) } },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    /// The record in the current row of `statement` (columns as ``readBatch(_:after:limit:)`` selects
    /// them); `targets` is ``targetEntities(of:)``.
    ///
    /// A value that cannot be carried exactly leaves the record with a ``CoreDataRecord/problem``
    /// naming it (the first one met), rather than a changed or missing value.
    private func record(
        from statement: OpaquePointer, entity: StoreMapping.EntityMapping, targets: [[Int64: String]], prefixes: inout GlobalIDPrefixes
    ) throws -> CoreDataRecord {
        let primaryKey = sqlite3_column_int64(statement, 0)
        var record = CoreDataRecord(entity: entity.name, primaryKey: primaryKey, globalID: prefixes.globalID(entity: entity.name, primaryKey: primaryKey))
        record.values.reserveCapacity(entity.attributes.count)
        func refuse(_ column: String, _ what: String) {
            if record.problem == nil { record.problem = "\(entity.table).\(column) of \(entity.name) p\(primaryKey) holds \(what)" }
        }
        var index: Int32 = 1
        for attribute in entity.attributes {
            do {
                record.values.append(try value(of: statement, column: index, attribute: attribute), forNewName: attribute.name)
            } catch {
                switch error {
                case .uncarried(let what):
                    refuse(attribute.column, "\(what) (attribute \(attribute.name), \(attribute.type.rawValue))")
                case .externalFileMissing(let reference):
                    throw CoreDataStoreError(
                        path: path,
                        problem: "\(entity.name) p\(primaryKey) \(attribute.name) refers to external file \(reference), which is missing",
                        hint: "copy the store together with its .\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)_SUPPORT folder",
                        failureKind: .missingInput)
                }
            }
            index += 1
        }
        var entityIndex = index + Int32(entity.toOnes.count)
        var orderIndex = entityIndex + Int32(entity.toOnes.filter { $0.entityColumn != nil }.count)
        for (position, toOne) in entity.toOnes.enumerated() {
            defer { index += 1 }
            var targetEntity = toOne.destination
            var entityNumber: DatabaseValue?
            if toOne.entityColumn != nil {
                entityNumber = Self.rawValue(statement, entityIndex)
                entityIndex += 1
            }
            var order: DatabaseValue?
            if toOne.orderColumn != nil {
                order = Self.rawValue(statement, orderIndex)
                orderIndex += 1
            }
            let key = Self.rawValue(statement, index)
            let target: Int64
            switch key.storage {
            case .null:
                continue
            case .int64(let number):
                target = number
            default:
                refuse(toOne.column, "\(Self.describe(key)), not a Z_PK of \(toOne.destination) (to-one \(toOne.name))")
                continue
            }
            guard target != 0 else { continue }
            if let entityColumn = toOne.entityColumn, let entityNumber {
                guard case .int64(let number) = entityNumber.storage, let name = targets[position][number] else {
                    refuse(entityColumn, "\(Self.describe(entityNumber)), which names no \(toOne.destination) entity for its to-one \(toOne.name) (p\(target))")
                    continue
                }
                targetEntity = name
            }
            if let orderColumn = toOne.orderColumn, let order {
                switch order.storage {
                case .null: break
                case .int64(let position): record.toOneOrder[toOne.name] = position
                default: refuse(orderColumn, "\(Self.describe(order)), not a position in the ordered inverse of \(toOne.name)")
                }
            }
            record.toOne[toOne.name] = prefixes.globalID(entity: targetEntity, primaryKey: target)
        }
        return record
    }

    /// One column's value for `attribute`, by the column's storage class.
    private func value(
        of statement: OpaquePointer, column: Int32, attribute: StoreMapping.AttributeColumn
    ) throws(StoredValueDecoder.Failure) -> AttributeValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return try values.decode(integer: sqlite3_column_int64(statement, column), type: attribute.type)
        case SQLITE_FLOAT:
            return try values.decode(real: sqlite3_column_double(statement, column), type: attribute.type)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let start = sqlite3_column_text(statement, column) else { return try values.decode(text: [], type: attribute.type) }
            return try values.decode(text: UnsafeBufferPointer(start: start, count: count), type: attribute.type)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            let data = sqlite3_column_blob(statement, column).map { Data(bytes: $0, count: count) } ?? Data()
            return try values.decode(blob: data, type: attribute.type, allowsExternalStorage: attribute.allowsExternalStorage)
        default:
            return .null
        }
    }

    /// The current row's value in `column`, as stored (text as its bytes, so nothing is replaced).
    static func rawValue(_ statement: OpaquePointer, _ column: Int32) -> DatabaseValue {
        let kind = sqlite3_column_type(statement, column)
        switch kind {
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, column).databaseValue
        case SQLITE_FLOAT: return sqlite3_column_double(statement, column).databaseValue
        case SQLITE_TEXT, SQLITE_BLOB:
            let bytes = sqlite3_column_blob(statement, column).map { Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, column))) } ?? Data()
            if kind == SQLITE_TEXT, let text = String(validating: bytes, as: UTF8.self) {
                return text.databaseValue
            }
            return bytes.databaseValue
        default: return .null
        }
    }

    /// A stored value as short as it goes, for messages: "7", "1.5", "'abc'", "NULL", "3 bytes".
    static func compact(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "'\(ValueFit.preview(text))'"
        default: return describe(value)
        }
    }

    /// A stored value in a few words, for messages: "the text 'abc'", "the real 1.5", "NULL".
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return "the integer \(number)"
        case .double(let number): return "the real \(number)"
        case .string(let text): return "the text '\(ValueFit.preview(text))'"
        case .blob(let data): return "\(data.count) bytes"
        }
    }

    /// Owner primary key → ordered target global IDs, for owners in `first...last`; and owner →
    /// why a member cannot be carried (a join row whose target key is not an integer).
    private func members(
        of toMany: StoreMapping.ToMany, from first: Int64, through last: Int64, db: Database
    ) throws -> (members: [Int64: [String]], problems: [Int64: String]) {
        let sql: String
        switch toMany.source {
        case let .joinTable(table, ownColumn, targetColumn, orderColumn):
            let own = "j." + ownColumn.quotedSQLIdentifier
            let target = "j." + targetColumn.quotedSQLIdentifier
            let order = orderColumn.map { "j." + $0.quotedSQLIdentifier + ", " } ?? ""
            sql = """
                SELECT \(own), \(target), t.Z_ENT FROM \(table.quotedSQLIdentifier) j
                LEFT JOIN \(toMany.destinationTable.quotedSQLIdentifier) t ON t.Z_PK = \(target)
                WHERE \(own) BETWEEN ? AND ? ORDER BY \(own), \(order)\(target)
                """
        case let .children(table, foreignKey, orderColumn):
            let numbers = ([toMany.destination] + model.descendants(of: toMany.destination).map(\.name))
                .compactMap { schema.entityRow(named: $0)?.number }.map(String.init).joined(separator: ", ")
            let key = "c." + foreignKey.quotedSQLIdentifier
            sql = """
                SELECT \(key), c.Z_PK, c.Z_ENT FROM \(table.quotedSQLIdentifier) c
                WHERE \(key) BETWEEN ? AND ? AND c.Z_ENT IN (\(numbers))
                ORDER BY \(key), c.\(orderColumn.quotedSQLIdentifier), c.Z_PK
                """
        }
        var members: [Int64: [String]] = [:]
        var problems: [Int64: String] = [:]
        // Through the C API, reading each column's storage class: a text or fractional key is
        // reported, never converted (GRDB's conversions stop the process on such a value).
        try Self.forEachRow(in: db, sql: sql, arguments: [first, last]) { row in
            guard case .int64(let owner) = Self.rawValue(row, 0).storage else { return true }
            let key = Self.rawValue(row, 1)
            guard case .int64(let target) = key.storage else {
                if problems[owner] == nil, case .joinTable(let table, _, let targetColumn, _) = toMany.source {
                    problems[owner] = "\(table).\(targetColumn) holds \(Self.describe(key)) as a member of \(toMany.name) of p\(owner), not a Z_PK of \(toMany.destination)"
                }
                return true
            }
            var targetEntity = toMany.destination
            if case .int64(let number) = Self.rawValue(row, 2).storage, let entity = schema.entityRow(number) { targetEntity = entity.name }
            members[owner, default: []].append(globalID(entity: targetEntity, primaryKey: target))
            return true
        }
        return (members, problems)
    }
}
