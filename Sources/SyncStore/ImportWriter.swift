import Foundation
import GRDB
import ObjectModel

/// Writes imported records with one prepared statement per entity (every column bound, absent ones NULL).
final class ImportWriter {
    let db: Database
    let store: SyncStore
    let now: Date
    /// Whether a blob file was written without its own fsync (see ``BlobStore/flushFileSystem()``).
    private(set) var wroteBlobs = false

    init(db: Database, store: SyncStore, now: Date) {
        self.db = db
        self.store = store
        self.now = now
    }

    /// Inserts one record and its join rows.
    func write(_ record: ImportRecord) throws {
        if let problem = store.problem(with: record) {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): \(problem)")
        }
        let entity = record.entity
        let layout = store.layout
        let plan = store.plans[entity]!
        var arguments: [DatabaseValueConvertible?] = [record.globalID.rawValue, entity, now.timeIntervalSince1970, record.seed?.set, record.seed?.version]
        arguments.reserveCapacity(5 + plan.attributes.count + plan.toOne.count * 2)
        for attribute in plan.attributes {
            let given = record.values[attribute.name] ?? attribute.defaultValue ?? .null
            arguments.append(try storedValue(given, attribute: attribute, entity: entity))
        }
        for relationship in plan.toOne {
            arguments.append(record.toOne[relationship.name]?.rawValue)
            if relationship.order != nil { arguments.append(record.toOneOrder[relationship.name]) }
        }
        let sql = plan.insertSQL
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
            let defaults = store.plans[record.entity]?.attributes.filter { $0.defaultValue != nil }.map(\.name) ?? []
            let names = Set(record.values.keys).union(record.toOne.keys).union(record.toMany.keys).union(defaults)
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
                let digest = try store.blobs.write(data, durable: false)
                wroteBlobs = true
                return (BlobStore.referencePrefix + digest).databaseValue
            } catch {
                throw StoreError(.io, path: store.path, message: "cannot write the external value of \(entity).\(attribute.name): \(error.localizedDescription)",
                                 hint: "check free space and permissions of \(store.blobs.directory.path)")
            }
        }
        return ValueCoder.databaseValue(normalized)
    }

    private static func jsonEscaped(_ text: String) -> String {
        // Property names are identifiers: almost never anything to escape.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 < 0x20 }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
