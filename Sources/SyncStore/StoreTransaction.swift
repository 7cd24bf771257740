import Foundation
import GRDB
import ObjectModel

/// The changes of one save: inserts, updates, deletes and relationship changes, by global ID.
///
/// Get one from ``SyncStore/save(author:_:)``; everything done through it is committed together
/// as one history transaction, or not at all. Required values and min/max rules are not enforced
/// (sync must be able to store anything; `check` reports invalid records); a value of the wrong
/// kind, an unknown entity or property, or a missing record is refused.
///
/// ```swift
/// try store.save(author: "app") { tx in
///     let type = try tx.insert("SpeechType", values: ["name": .string("Toast")], seed: SeedMark(set: "builtin", version: 1))
///     let speech = try tx.insert("Speech", values: ["title": .string("Hello")])
///     try tx.setToOne("type", of: speech, to: type)
/// }
/// ```
public final class StoreTransaction {
    let db: Database
    let store: SyncStore
    let now: Date
    var pending = PendingChanges()
    private var entityCache: [GlobalID: String] = [:]
    /// One statement over every entity table that finds a record by global ID (prepared once per
    /// transaction: a repair looks up a million records).
    private lazy var locateSQL: String = layout.entityTables.enumerated().map { index, table in
        "SELECT \(index) AS t, _entity FROM \(table.quotedSQLIdentifier) WHERE _gid = ?1"
    }.joined(separator: " UNION ALL ") + " LIMIT 1"

    init(db: Database, store: SyncStore, now: Date) {
        self.db = db
        self.store = store
        self.now = now
    }

    var model: ManagedModel { store.model }
    var layout: StoreLayout { store.layout }

    /// Inserts a record and returns its global ID.
    ///
    /// Attributes not given take the model's default value, when it has one.
    ///
    /// - Parameters:
    ///   - entity: the exact entity (not abstract).
    ///   - id: the global ID to use; a new random one when `nil`.
    ///   - values: attribute values by name.
    ///   - seed: the seed set, when the record is seed data rather than the user's.
    @discardableResult
    public func insert(_ entity: String, id: GlobalID? = nil, values: [String: AttributeValue] = [:], seed: SeedMark? = nil) throws -> GlobalID {
        if let refusal = seedDataRefusal(entity) { throw refusal }
        guard let description = model.entity(named: entity), let table = layout.tableOfEntity[entity] else {
            throw request("there is no entity named '\(entity)' in model \(model.versionName)")
        }
        guard !description.isAbstract else {
            throw request("entity \(entity) is abstract; insert one of its sub-entities instead")
        }
        let id = id ?? .random()
        if try self.entity(of: id) != nil {
            throw request("a record with global ID \(id) already exists")
        }
        var given = values
        for attribute in model.attributes(of: entity) where !attribute.isTransient && given[attribute.name] == nil {
            if let value = attribute.defaultValue, !value.isNull { given[attribute.name] = value }
        }
        var columns = ["_gid", "_entity", "_created", "_updated", "_seed_set", "_seed_version"]
        var arguments: [DatabaseValueConvertible?] = [id.rawValue, entity, now.timeIntervalSince1970, nil, seed?.set, seed?.version]
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            let (column, stored) = try columnValue(name, value, entity: entity)
            columns.append(column)
            arguments.append(stored)
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(table.quotedSQLIdentifier) (\(columns.map(\.quotedSQLIdentifier).joined(separator: ", "))) VALUES (\(placeholders))"
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
        entityCache[id] = entity
        pending.inserted(id, entity: entity, properties: given.keys)
        return id
    }

    /// Changes attribute values of an existing record.
    public func update(_ id: GlobalID, values: [String: AttributeValue]) throws {
        guard !values.isEmpty else { return }
        let entity = try requireEntity(of: id)
        let table = try table(of: entity)
        var assignments: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let (column, stored) = try columnValue(name, value, entity: entity)
            assignments.append("\(column.quotedSQLIdentifier) = ?")
            arguments.append(stored)
        }
        arguments.append(id.rawValue)
        try db.execute(sql: "UPDATE \(table.quotedSQLIdentifier) SET \(assignments.joined(separator: ", ")) WHERE _gid = ?",
                       arguments: StatementArguments(arguments))
        try touch(id, entity: entity, properties: values.keys)
    }

    /// The exact entity of the record `id`, or `nil` when no such record exists.
    ///
    /// - Throws: ``StoreError`` `damaged` when the record's row names no entity of its table (the
    ///   store was written around storekeep; `check` reports it as `record.unknownEntity`).
    public func entity(of id: GlobalID) throws -> String? {
        guard let found = try locate(id) else { return nil }
        guard let entity = found.entity else {
            throw StoreError(.damaged, path: store.path,
                             message: "record \(id) in table \(found.table) names the entity '\(found.storedEntity ?? "NULL")', which is not an entity of that table in model \(model.versionName)",
                             hint: "`storekeep check` reports it (record.unknownEntity); restore the record from a backup")
        }
        return entity
    }

    /// Where the record `id` is stored: its table, the entity its row names, and that entity when it
    /// is one the table holds (`nil` for a row written around storekeep); `nil` when there is no such record.
    func locate(_ id: GlobalID) throws -> (table: String, storedEntity: String?, entity: String?)? {
        if let cached = entityCache[id] {
            return pending.wasDeleted(id) ? nil : (layout.tableOfEntity[cached] ?? "", cached, cached)
        }
        let tables = layout.entityTables
        guard !tables.isEmpty,
              let row = try Row.fetchOne(db.cachedStatement(sql: locateSQL), arguments: [id.rawValue]) else { return nil }
        let stored = row[1] as DatabaseValue
        guard let index = row.stored(at: 0, as: Int.self), tables.indices.contains(index) else { return nil }
        let table = tables[index]
        let name = String.fromDatabaseValue(stored)
        guard let name, layout.tableOfEntity[name] == table, model.entity(named: name) != nil else {
            return (table, name, nil)
        }
        entityCache[id] = name
        return (table, name, name)
    }

    func requireEntity(of id: GlobalID) throws -> String {
        guard let entity = try entity(of: id) else { throw request("there is no record with global ID \(id)") }
        return entity
    }

    /// The table of `entity`'s family.
    func table(of entity: String) throws -> String {
        if let refusal = seedDataRefusal(entity) { throw refusal }
        guard let table = layout.tableOfEntity[entity] else { throw request("there is no entity named '\(entity)' in model \(model.versionName)") }
        return table
    }

    /// Records that `properties` of `id` changed and stamps its update time (unless inserted in this transaction).
    func touch(_ id: GlobalID, entity: String, properties: some Sequence<String>) throws {
        if !pending.wasInserted(id) {
            let table = try table(of: entity)
            try db.cachedStatement(sql: "UPDATE \(table.quotedSQLIdentifier) SET _updated = ? WHERE _gid = ?")
                .execute(arguments: [now.timeIntervalSince1970, id.rawValue])
        }
        pending.updated(id, entity: entity, properties: properties)
    }

    /// The column and SQLite value for setting attribute `name` of a record of `entity` to `value`.
    private func columnValue(_ name: String, _ value: AttributeValue, entity: String) throws -> (String, DatabaseValue) {
        guard let attribute = model.attribute(name, of: entity) else {
            if model.relationship(name, of: entity) != nil {
                throw request("\(name) is a relationship of \(entity); set it with setToOne or setToMany")
            }
            throw request("entity \(entity) has no attribute named '\(name)'")
        }
        guard !attribute.isTransient, let column = layout.attributeColumns[entity]?[name] else {
            throw request("attribute \(entity).\(name) is transient and never stored")
        }
        guard let normalized = ValueCoder.normalized(value, for: attribute) else {
            let reason = ValueCoder.refusal(of: value, type: attribute.type) ?? "a \(value.kindName) value"
            throw request("attribute \(entity).\(name) is of type \(attribute.type.rawValue) and cannot hold \(reason)")
        }
        if case .binary(let data) = normalized, attribute.allowsExternalBinaryDataStorage, data.count > SyncStore.externalStorageThreshold {
            do {
                let digest = try store.blobs.write(data)
                return (column, (BlobStore.referencePrefix + digest).databaseValue)
            } catch {
                throw StoreError.externalValue(error, path: store.path, entity: entity, attribute: name, folder: store.blobs.directory.path)
            }
        }
        return (column, ValueCoder.databaseValue(normalized))
    }

    func request(_ message: String) -> StoreError {
        StoreError(.invalidRequest, path: store.path, message: message)
    }
}
