import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// The record with global ID `id`, or `nil` when there is none.
    public func record(_ id: GlobalID) throws -> Record? {
        try read("read a record") { db in
            for table in Set(layout.tableOfEntity.values).sorted() {
                if let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table.quotedSQLIdentifier) WHERE _gid = ?", arguments: [id.rawValue]) {
                    return try makeRecord(from: row)
                }
            }
            return nil
        }
    }

    /// The global IDs of the live records of `entity` (and of its sub-entities unless told not to), sorted.
    public func globalIDs(of entity: String, includingSubentities: Bool = true) throws -> [GlobalID] {
        guard let table = layout.tableOfEntity[entity] else {
            throw StoreError(.invalidRequest, path: path, message: "there is no entity named '\(entity)' in model \(model.versionName)")
        }
        let names = [entity] + (includingSubentities ? model.descendants(of: entity).map(\.name) : [])
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try read("list records") { db in
            try String.fetchAll(db, sql: "SELECT _gid FROM \(table.quotedSQLIdentifier) WHERE _entity IN (\(marks)) ORDER BY _gid",
                                arguments: StatementArguments(names)).map(GlobalID.init)
        }
    }

    /// The members of relationship `relationship` of record `id`: ordered relationships in their
    /// order, others by global ID; a to-one relationship gives zero or one member.
    public func related(_ relationship: String, of id: GlobalID) throws -> [GlobalID] {
        try read("read a relationship") { db in
            let transaction = StoreTransaction(db: db, store: self, now: Date())
            let entity = try transaction.requireEntity(of: id)
            _ = try transaction.relationshipStorage(relationship, of: entity)
            return try transaction.members(of: relationship, of: id, entity: entity)
        }
    }

    /// The number of live records of each entity, counted under their exact entity (every entity
    /// of the model appears, abstract ones and empty ones with 0; rows of a damaged store whose
    /// `_entity` names no entity appear under that name, and rows whose `_entity` is not text are
    /// left out: ``rowsOfNoEntity()`` lists them all).
    public func liveRecordCounts() throws -> [String: Int] {
        try read("count records") { db in
            var counts = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, 0) })
            for table in Set(layout.tableOfEntity.values).sorted() {
                for row in try Row.fetchAll(db, sql: "SELECT _entity, COUNT(*) AS n FROM \(table.quotedSQLIdentifier) GROUP BY _entity") {
                    // A row naming no entity still counts (under the name it holds, or "" for NULL).
                    counts[row.stored("_entity", as: String.self) ?? "", default: 0] += row.stored("n", as: Int.self) ?? 0
                }
            }
            return counts
        }
    }

    /// The number of rows in the store's record tables, whatever they hold.
    public func recordRowCount() throws -> Int {
        try read("count records") { db in
            try Set(layout.tableOfEntity.values).sorted().reduce(0) { total, table in
                total + (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier)") ?? 0)
            }
        }
    }

    /// The rows of the record tables that are no record of an entity with records of its own:
    /// their `_entity` is an abstract entity, one the model does not have, one kept in another
    /// table, or not text at all (a damaged store). In table, then row-id order; each with why.
    public func rowsOfNoEntity() throws -> [(table: String, rowID: Int64, reason: String)] {
        try read("list rows of no entity") { db in
            var found: [(table: String, rowID: Int64, reason: String)] = []
            for table in Set(layout.tableOfEntity.values).sorted() {
                let kept = model.entities.filter { !$0.isAbstract && layout.tableOfEntity[$0.name] == table }.map(\.name)
                let marks = Array(repeating: "?", count: kept.count).joined(separator: ", ")
                let sql = "SELECT _rowid, _entity FROM \(table.quotedSQLIdentifier) WHERE NOT coalesce(_entity IN (\(marks)), 0) ORDER BY _rowid"
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(kept)) {
                    let entity = row["_entity"] as DatabaseValue
                    let rowID = (row["_rowid"] as DatabaseValue).storage
                    guard case .int64(let id) = rowID else { continue }
                    let reason: String
                    if case .string(let name) = entity.storage {
                        if let description = model.entity(named: name) {
                            reason = description.isAbstract
                                ? "\(table) row \(id) has _entity '\(name)', an abstract entity, which has no records of its own"
                                : "\(table) row \(id) has _entity '\(name)', whose records are kept in \(layout.tableOfEntity[name] ?? "another table")"
                        } else {
                            reason = "\(table) row \(id) has _entity '\(name)', which names no entity of model \(model.name) \(model.versionName)"
                        }
                    } else {
                        reason = "\(table) row \(id) has an _entity that is not text (\(entity)), so it names no entity"
                    }
                    found.append((table, id, reason))
                }
            }
            return found
        }
    }

    /// Counts of the store's history.
    public func historySummary() throws -> HistorySummary {
        try read("count the history") { db in
            HistorySummary(
                transactions: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_transaction") ?? 0,
                changes: (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_change") ?? 0) + (try insertRunRecordCount(in: db)),
                localSequence: try db.storedValue(Int64.self, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [metadata.peerID],
                                                  table: "sk_transaction", row: "the transactions of peer \(metadata.peerID)", store: path) ?? 0)
        }
    }

    /// The history transactions with an ID greater than `afterID`, oldest first, with their changes.
    public func transactions(after afterID: Int64 = 0) throws -> [HistoryTransaction] {
        try read("read the history") { db in
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            var result: [HistoryTransaction] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM sk_transaction WHERE id > ? ORDER BY id", arguments: [afterID]) {
                let id: Int64 = try row.required("id", table: "sk_transaction", row: "a transaction", store: path)
                func value<T: DatabaseValueConvertible>(_ column: String, of row: Row, in table: String) throws -> T {
                    try row.required(column, table: table, row: "transaction \(id)", store: path)
                }
                // A bulk import's inserts are insert runs; anything else (and the insert of a bulk-imported
                // record deleted since) is a change row.
                var changes = try insertRunChanges(of: id, in: db)
                for change in try Row.fetchAll(db, sql: "SELECT * FROM sk_change WHERE tx = ? ORDER BY id", arguments: [id]) {
                    let text: String = try value("properties", of: change, in: "sk_change")
                    let tombstoneText = change.stored("tombstone", as: String.self)
                    let properties: [String]
                    let tombstone: [String: AttributeValue]?
                    do {
                        properties = try decoder.decode([String].self, from: Data(text.utf8))
                        tombstone = try tombstoneText.map { try decoder.decode([String: AttributeValue].self, from: Data($0.utf8)) }
                    } catch {
                        throw StoreError(.damaged, path: path, message: "sk_change, transaction \(id): a change's properties or tombstone is not the JSON storekeep writes",
                                         hint: "the store was written around storekeep; restore it from a backup")
                    }
                    let kind: String = try value("kind", of: change, in: "sk_change")
                    changes.append(HistoryChange(entity: try value("entity", of: change, in: "sk_change"), globalID: GlobalID(try value("gid", of: change, in: "sk_change")),
                                                 kind: ChangeKind(rawValue: kind) ?? .update,
                                                 properties: properties, tombstone: tombstone))
                }
                result.append(HistoryTransaction(id: id, peer: try value("peer", of: row, in: "sk_transaction"), sequence: try value("seq", of: row, in: "sk_transaction"),
                                                 author: try value("author", of: row, in: "sk_transaction"),
                                                 timestamp: Date(timeIntervalSince1970: try value("timestamp", of: row, in: "sk_transaction")), changes: changes))
            }
            return result
        }
    }

    /// Runs a read and turns any failure into a ``StoreError``.
    func read<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }

    /// The record a row of an entity table holds.
    ///
    /// - Throws: ``StoreError`` `damaged` for a row without a usable global ID, entity or creation
    ///   time, naming an entity the model does not have, or referring to an external value that is
    ///   malformed or missing.
    func makeRecord(from row: Row) throws -> Record {
        let gid = row.stored("_gid", as: String.self)
        let table = "an entity table"
        let entity: String = try row.required("_entity", table: table, row: "record \(gid ?? "without a global ID")", store: path)
        guard let gid, model.entity(named: entity) != nil, layout.tableOfEntity[entity] != nil else {
            throw StoreError(.damaged, path: path,
                             message: "record \(gid ?? "without a global ID") names the entity '\(entity.prefix(80))', which is not an entity of model \(model.versionName)\(gid == nil ? ", or has no global ID" : "")",
                             hint: "`storekeep check` reports it; restore the record from a backup")
        }
        let created: Double = try row.required("_created", table: layout.tableOfEntity[entity] ?? table, row: "record \(gid)", store: path)
        var values: [String: AttributeValue] = [:]
        for attribute in model.attributes(of: entity) where !attribute.isTransient {
            guard let column = layout.attributeColumns[entity]?[attribute.name] else { continue }
            let stored = (row[column] as (any DatabaseValueConvertible)?)?.databaseValue ?? .null
            var value = ValueCoder.attributeValue(stored, for: attribute.type)
            if attribute.type.isBinary, case .string(let text) = value, text.hasPrefix(BlobStore.referencePrefix) {
                // Only a well-formed digest names a file: a reference like `sha256:../x` must not read outside the blob folder.
                guard let digest = BlobStore.digest(inReference: text) else {
                    throw StoreError(.damaged, path: path,
                                     message: "record \(gid): \(entity).\(attribute.name) holds '\(text.prefix(80))', which is not a sha256:<64 hex digits> reference",
                                     hint: "`storekeep check` reports it (blob.badReference); restore the record from a backup")
                }
                do {
                    value = .binary(try blobs.read(digest: digest))
                } catch {
                    throw StoreError(.damaged, path: path,
                                     message: "the external value of \(entity).\(attribute.name) is missing (\(blobs.fileURL(forDigest: digest).path))",
                                     hint: "restore the blob folder from a backup")
                }
            }
            values[attribute.name] = value
        }
        var toOne: [String: GlobalID] = [:]
        for (name, storage) in layout.relationships[entity] ?? [:] {
            if case .column(_, let column, _) = storage, let target = row.stored(column, as: String.self) { toOne[name] = GlobalID(target) }
        }
        let seedSet = row.stored("_seed_set", as: String.self)
        return Record(entity: entity, globalID: GlobalID(gid), values: values, toOne: toOne,
                      createdAt: Date(timeIntervalSince1970: created),
                      updatedAt: row.stored("_updated", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                      seed: seedSet.map { SeedMark(set: $0, version: row.stored("_seed_version", as: Int.self) ?? 0) })
    }
}
