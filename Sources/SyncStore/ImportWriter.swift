import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// Writes imported records with one prepared statement per entity (every column bound, absent ones NULL).
final class ImportWriter {
    let db: Database
    let store: SyncStore
    let now: Date
    /// Whether a blob file was written without its own fsync (see ``BlobStore/flushFileSystem()``).
    private(set) var wroteBlobs = false
    /// The insert statement of each entity written so far.
    private var inserts: [String: Statement] = [:]

    init(db: Database, store: SyncStore, now: Date) {
        self.db = db
        self.store = store
        self.now = now
    }

    /// Inserts one record and its join rows.
    ///
    /// - Parameter checked: the caller already had `nil` from ``SyncStore/problem(with:)`` for this
    ///   record, so it is not checked again (a value of the wrong kind is still refused).
    func write(_ record: ImportRecord, checked: Bool = false) throws {
        if !checked, let problem = store.problem(with: record) {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): \(problem)")
        }
        let entity = record.entity
        guard let plan = store.plans[entity] else {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): there is no entity named '\(entity)'")
        }
        // Values are bound straight into the entity's prepared statement: no argument array per record.
        let statement = try insertStatement(plan)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var index: CInt = 0
        func bind(_ value: DatabaseValue) throws {
            index += 1
            let code = value.bind(to: handle, at: index)
            guard code == SQLITE_OK else {
                throw StoreError(.io, path: store.path, message: "cannot bind value \(index) of \(record.globalID): SQLite error \(code)")
            }
        }
        try bind(record.globalID.rawValue.databaseValue)
        try bind(entity.databaseValue)
        try bind(now.timeIntervalSince1970.databaseValue)
        try bind(record.seed?.set.databaseValue ?? .null)
        try bind(record.seed.map { Int64($0.version).databaseValue } ?? .null)
        for attribute in plan.attributes {
            let given = record.values[attribute.name] ?? attribute.defaultValue ?? .null
            try bind(try storedValue(given, attribute: attribute, entity: entity))
        }
        for relationship in plan.toOne {
            try bind(record.toOne[relationship.name]?.rawValue.databaseValue ?? .null)
            if relationship.order != nil { try bind(record.toOneOrder[relationship.name]?.databaseValue ?? .null) }
        }
        do {
            try statement.execute()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError(.invalidRequest, path: store.path, message: "a record with global ID \(record.globalID) already exists")
        }
        let layout = store.layout
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

    /// The insert statement of `plan`'s entity, prepared once per writer (so never shared with a
    /// statement that failed in another transaction), its arguments bound by ``write(_:checked:)``.
    private func insertStatement(_ plan: EntityPlan) throws -> Statement {
        if let statement = inserts[plan.entity] { return statement }
        let statement = try db.makeStatement(sql: plan.insertSQL)
        // Marks the (empty) arguments as bound, so that `execute()` steps what write(_:checked:) binds.
        statement.setUncheckedArguments(StatementArguments())
        inserts[plan.entity] = statement
        return statement
    }

    /// One history transaction with an insert change per record.
    func recordHistory(_ records: [ImportRecord], author: String) throws {
        let peer = store.metadata.peerID
        let last = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [peer]) ?? 0
        try db.execute(sql: "INSERT INTO sk_transaction (peer, seq, author, timestamp) VALUES (?, ?, ?, ?)",
                       arguments: [peer, last + 1, author, now.timeIntervalSince1970])
        let transaction = db.lastInsertedRowID
        let insert = try db.cachedStatement(sql: "INSERT INTO sk_change (tx, entity, gid, kind, properties, tombstone) VALUES (?, ?, ?, 'insert', ?, NULL)")
        var cache = HistoryPropertiesCache()
        for record in records {
            let properties = cache.properties(of: record, defaulted: store.plans[record.entity]?.defaultedAttributes ?? [])
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
}
