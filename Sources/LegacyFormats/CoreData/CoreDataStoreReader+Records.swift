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
                let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                let sql = "SELECT \(list) FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT = ? AND Z_PK > ? ORDER BY Z_PK LIMIT ?"
                // Rows are read through the C API: a batch is thousands of rows, and values are
                // decoded straight from the columns without an intermediate row object.
                var records: [CoreDataRecord] = []
                records.reserveCapacity(limit)
                var prefixes = GlobalIDPrefixes(storeUUID: storeUUID)
                try Self.forEachRow(in: db, sql: sql, arguments: [entity.number, after, Int64(limit)]) { statement in
                    records.append(try record(from: statement, entity: entity, prefixes: &prefixes))
                    return true
                }
                guard !entity.toManys.isEmpty, let first = records.first?.primaryKey, let last = records.last?.primaryKey else { return records }
                let positions = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.primaryKey, $0) })
                for toMany in entity.toManys {
                    for (owner, targets) in try members(of: toMany, from: first, through: last, db: db) {
                        if let position = positions[owner] { records[position].toMany[toMany.name] = targets }
                    }
                }
                return records
            }
        } catch let error as CoreDataStoreError {
            throw error
        } catch let error as DatabaseError {
            throw CoreDataStoreError(
                path: path, problem: "SQLite failed while reading \(entity.name): \(error.message ?? "\(error.resultCode)")",
                failureKind: .ioFailure)
        }
    }

    /// The record in the current row of `statement` (columns as ``readBatch(_:after:limit:)`` selects them).
    private func record(
        from statement: OpaquePointer, entity: StoreMapping.EntityMapping, prefixes: inout GlobalIDPrefixes
    ) throws -> CoreDataRecord {
        let primaryKey = sqlite3_column_int64(statement, 0)
        var record = CoreDataRecord(entity: entity.name, primaryKey: primaryKey, globalID: prefixes.globalID(entity: entity.name, primaryKey: primaryKey))
        record.values.reserveCapacity(entity.attributes.count)
        var index: Int32 = 1
        for attribute in entity.attributes {
            do {
                record.values.append(try value(of: statement, column: index, attribute: attribute), forNewName: attribute.name)
            } catch {
                throw CoreDataStoreError(
                    path: path,
                    problem: "\(entity.name) p\(primaryKey) \(attribute.name) refers to external file \(error.reference), which is missing",
                    hint: "copy the store together with its .\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)_SUPPORT folder",
                    failureKind: .missingInput)
            }
            index += 1
        }
        var entityIndex = index + Int32(entity.toOnes.count)
        var orderIndex = entityIndex + Int32(entity.toOnes.filter { $0.entityColumn != nil }.count)
        for toOne in entity.toOnes {
            defer { index += 1 }
            var targetEntity = toOne.destination
            if toOne.entityColumn != nil {
                if sqlite3_column_type(statement, entityIndex) != SQLITE_NULL,
                   let row = schema.entityRow(sqlite3_column_int64(statement, entityIndex)) {
                    targetEntity = row.name
                }
                entityIndex += 1
            }
            var order: Int64?
            if toOne.orderColumn != nil {
                if sqlite3_column_type(statement, orderIndex) != SQLITE_NULL { order = sqlite3_column_int64(statement, orderIndex) }
                orderIndex += 1
            }
            guard sqlite3_column_type(statement, index) != SQLITE_NULL else { continue }
            let target = sqlite3_column_int64(statement, index)
            guard target != 0 else { continue }
            record.toOne[toOne.name] = prefixes.globalID(entity: targetEntity, primaryKey: target)
            if let order { record.toOneOrder[toOne.name] = order }
        }
        return record
    }

    /// One column's value for `attribute`, by the column's storage class.
    private func value(
        of statement: OpaquePointer, column: Int32, attribute: StoreMapping.AttributeColumn
    ) throws(StoredValueDecoder.ExternalFileMissing) -> AttributeValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return values.decode(integer: sqlite3_column_int64(statement, column), type: attribute.type)
        case SQLITE_FLOAT:
            return values.decode(real: sqlite3_column_double(statement, column), type: attribute.type)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            let text = sqlite3_column_text(statement, column).map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
            return values.decode(text: text, type: attribute.type)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            let data = sqlite3_column_blob(statement, column).map { Data(bytes: $0, count: count) } ?? Data()
            return try values.decode(blob: data, type: attribute.type, allowsExternalStorage: attribute.allowsExternalStorage)
        default:
            return .null
        }
    }

    /// Owner primary key → ordered target global IDs, for owners in `first...last`.
    private func members(
        of toMany: StoreMapping.ToMany, from first: Int64, through last: Int64, db: Database
    ) throws -> [Int64: [String]] {
        let sql: String
        switch toMany.source {
        case let .joinTable(table, ownColumn, targetColumn, orderColumn):
            let own = "j." + ownColumn.quotedDatabaseIdentifier
            let target = "j." + targetColumn.quotedDatabaseIdentifier
            let order = orderColumn.map { "j." + $0.quotedDatabaseIdentifier + ", " } ?? ""
            sql = """
                SELECT \(own), \(target), t.Z_ENT FROM \(table.quotedDatabaseIdentifier) j
                LEFT JOIN \(toMany.destinationTable.quotedDatabaseIdentifier) t ON t.Z_PK = \(target)
                WHERE \(own) BETWEEN ? AND ? ORDER BY \(own), \(order)\(target)
                """
        case let .children(table, foreignKey, orderColumn):
            let numbers = ([toMany.destination] + model.descendants(of: toMany.destination).map(\.name))
                .compactMap { schema.entityRow(named: $0)?.number }.map(String.init).joined(separator: ", ")
            let key = "c." + foreignKey.quotedDatabaseIdentifier
            sql = """
                SELECT \(key), c.Z_PK, c.Z_ENT FROM \(table.quotedDatabaseIdentifier) c
                WHERE \(key) BETWEEN ? AND ? AND c.Z_ENT IN (\(numbers))
                ORDER BY \(key), c.\(orderColumn.quotedDatabaseIdentifier), c.Z_PK
                """
        }
        var members: [Int64: [String]] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [first, last])
        while let row = try rows.next() {
            guard let owner = row.stored(at: 0, as: Int64.self), let target = row.stored(at: 1, as: Int64.self) else { continue }
            let targetEntity = row.stored(at: 2, as: Int64.self).flatMap { schema.entityRow($0)?.name } ?? toMany.destination
            members[owner, default: []].append(globalID(entity: targetEntity, primaryKey: target))
        }
        return members
    }
}
