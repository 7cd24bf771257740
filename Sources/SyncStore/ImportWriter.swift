import Foundation
import GRDB
import ObjectModel

/// Writes imported records with one prepared statement per entity (every column bound, absent ones NULL).
struct ImportWriter {
    let db: Database
    let store: SyncStore
    let now: Date

    /// Inserts one record and its join rows.
    func write(_ record: ImportRecord) throws {
        if let problem = store.problem(with: record) {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): \(problem)")
        }
        let entity = record.entity
        let layout = store.layout
        let table = layout.tableOfEntity[entity]!
        let attributes = store.model.attributes(of: entity).filter { !$0.isTransient }
        let toOne = (layout.relationships[entity] ?? [:]).compactMap { name, storage -> (String, String, String?)? in
            if case .column(_, let column, let order) = storage { return (name, column, order) }
            return nil
        }.sorted { $0.0 < $1.0 }
        var columns = ["_gid", "_entity", "_created", "_seed_set", "_seed_version"]
        var arguments: [DatabaseValueConvertible?] = [record.globalID.rawValue, entity, now.timeIntervalSince1970, record.seed?.set, record.seed?.version]
        for attribute in attributes {
            columns.append(layout.attributeColumns[entity]![attribute.name]!)
            let given = record.values[attribute.name] ?? attribute.defaultValue ?? .null
            arguments.append(try storedValue(given, attribute: attribute, entity: entity))
        }
        for (name, column, order) in toOne {
            columns.append(column)
            arguments.append(record.toOne[name]?.rawValue)
            if let order {
                columns.append(order)
                arguments.append(record.toOneOrder[name])
            }
        }
        let sql = "INSERT INTO \(table.quotedDatabaseIdentifier) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        do {
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError(.invalidRequest, path: store.path, message: "a record with global ID \(record.globalID) already exists")
        }
        for (name, members) in record.toMany.sorted(by: { $0.key < $1.key }) {
            guard case .join(let joinTable, let sourceColumn, let targetColumn, let sourceOrder, _)? = layout.relationships[entity]?[name] else { continue }
            let orderColumn = "\(sourceColumn)_order"
            let upsert = """
                INSERT INTO \(joinTable.quotedDatabaseIdentifier) (\(sourceColumn), \(targetColumn), \(orderColumn)) VALUES (?, ?, ?)
                ON CONFLICT (owner, target) DO UPDATE SET \(orderColumn) = excluded.\(orderColumn)
                """
            let statement = try db.cachedStatement(sql: upsert)
            for (index, member) in members.enumerated() {
                try statement.execute(arguments: [record.globalID.rawValue, member.rawValue, sourceOrder == nil ? nil : Int64(index)])
            }
        }
    }

    /// One history transaction with an insert change per record.
    func recordHistory(_ records: [ImportRecord], author: String) throws {
        let peer = store.metadata.peerID
        let last = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [peer]) ?? 0
        try db.execute(sql: "INSERT INTO sk_transaction (peer, seq, author, timestamp) VALUES (?, ?, ?, ?)",
                       arguments: [peer, last + 1, author, now.timeIntervalSince1970])
        let transaction = db.lastInsertedRowID
        let insert = try db.cachedStatement(sql: "INSERT INTO sk_change (tx, entity, gid, kind, properties, tombstone) VALUES (?, ?, ?, 'insert', ?, NULL)")
        for record in records {
            let names = Set(record.values.keys).union(record.toOne.keys).union(record.toMany.keys)
                .union(store.model.attributes(of: record.entity).filter { $0.defaultValue != nil && !$0.isTransient }.map(\.name))
            let properties = "[" + names.sorted().map { "\"\(Self.jsonEscaped($0))\"" }.joined(separator: ",") + "]"
            try insert.execute(arguments: [transaction, record.entity, record.globalID.rawValue, properties])
        }
    }

    private func storedValue(_ value: AttributeValue, attribute: AttributeDescription, entity: String) throws -> DatabaseValue {
        guard let normalized = ValueCoder.normalized(value, for: attribute) else {
            throw StoreError(.invalidRequest, path: store.path, message: "\(entity).\(attribute.name) cannot hold a \(value.kindName) value")
        }
        if case .binary(let data) = normalized, attribute.allowsExternalBinaryDataStorage, data.count > SyncStore.externalStorageThreshold {
            do {
                return (BlobStore.referencePrefix + (try store.blobs.write(data))).databaseValue
            } catch {
                throw StoreError(.io, path: store.path, message: "cannot write the external value of \(entity).\(attribute.name): \(error.localizedDescription)",
                                 hint: "check free space and permissions of \(store.blobs.directory.path)")
            }
        }
        return ValueCoder.databaseValue(normalized)
    }

    private static func jsonEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
