import Foundation
import GRDB
import ObjectModel

/// One seed mark: a seed set seeded into a store for an account, at a version.
public struct SeedMarkRecord: Hashable, Sendable, Codable {
    /// The seed set.
    public var set: String
    /// The account it was seeded for (empty: no account known).
    public var account: String
    /// The seed set's version seeded last.
    public var version: Int
    /// When.
    public var applied: Date
}

extension StoreTransaction {
    /// The mark of seed set `set` for `account`, when it was seeded.
    public func seedMark(set: String, account: String) throws -> SeedMarkRecord? {
        // Read only: a store of a format before seed marks (read without upgrading it) has none.
        guard try db.tableExists("sk_seed_mark") else { return nil }
        guard let row = try Row.fetchOne(db, sql: "SELECT version, applied FROM sk_seed_mark WHERE seed_set = ? AND account = ?",
                                         arguments: [set, account]) else { return nil }
        let place = "seed set \(set), account \(account)"
        let version = try row.optional(at: 0, as: Int.self, table: "sk_seed_mark", row: place, store: store.path) ?? 0
        let applied = try row.optional(at: 1, as: Double.self, table: "sk_seed_mark", row: place, store: store.path) ?? 0
        return SeedMarkRecord(set: set, account: account, version: version, applied: Date(timeIntervalSince1970: applied))
    }

    /// Records that seed set `set` was seeded at `version` for `account` (saved with the transaction).
    public func recordSeedMark(set: String, version: Int, account: String) throws {
        try StoreSchema.createSeedMarkTable(in: db)
        try db.execute(sql: """
            INSERT INTO sk_seed_mark (seed_set, account, version, applied) VALUES (?, ?, ?, ?)
            ON CONFLICT (seed_set, account) DO UPDATE SET version = excluded.version, applied = excluded.applied
            """, arguments: [set, account, version, now.timeIntervalSince1970])
    }

    /// The seed mark of record `id` (`nil` for a record that is not seed data, or no such record),
    /// read in this transaction.
    public func seedMark(of id: GlobalID) throws -> SeedMark? {
        guard let table = try locate(id)?.table else { return nil }
        guard let row = try Row.fetchOne(db, sql: "SELECT _seed_set, _seed_version FROM \(table.quotedSQLIdentifier) WHERE _gid = ?",
                                         arguments: [id.rawValue]),
              let set = row.stored(at: 0, as: String.self) else { return nil }
        return SeedMark(set: set, version: row.stored(at: 1, as: Int.self) ?? 0)
    }

    /// Which of `ids` the user has modified (``SyncStore/userModifiedRecords(among:)``), read in this
    /// transaction: a save that decides from it what it may overwrite sees every edit committed before it.
    public func userModifiedRecords(among ids: [GlobalID]) throws -> Set<GlobalID> {
        try store.userModifiedRecords(among: ids, in: db)
    }

    /// Whether record `id` was deleted (its tombstone is kept).
    public func isDeleted(_ id: GlobalID) throws -> Bool {
        guard try db.tableExists("sk_tombstone") else { return false }
        return try Bool.fetchOne(db, sql: "SELECT 1 FROM sk_tombstone WHERE gid = ?", arguments: [id.rawValue]) ?? false
    }

    /// Whether a deleted record of `entity` (or a sub-entity) had exactly the identifying values
    /// `key` (its tombstone keeps them): a seed record the user deleted stays deleted.
    public func wasDeleted(_ entity: String, withKey key: [String: AttributeValue]) throws -> Bool {
        guard try db.tableExists("sk_tombstone") else { return false }
        let family = [entity] + model.descendants(of: entity).map(\.name)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let marks = Array(repeating: "?", count: family.count).joined(separator: ", ")
        for text in try String.fetchAll(db, sql: "SELECT identity FROM sk_tombstone WHERE entity IN (\(marks)) AND identity IS NOT NULL",
                                        arguments: StatementArguments(family)) {
            guard let identity = try? decoder.decode([String: AttributeValue].self, from: Data(text.utf8)) else { continue }
            if key.allSatisfy({ name, value in
                guard let kept = identity[name], let attribute = model.attribute(name, of: entity) else { return false }
                return (ValueCoder.normalized(kept, for: attribute) ?? kept) == (ValueCoder.normalized(value, for: attribute) ?? value)
            }) { return true }
        }
        return false
    }

    /// Brings an existing seed record up to a newer version of its seed set: sets `values` and its
    /// seed mark, without marking it updated (it stays untouched by the user). The history records
    /// it as an insert of the record again, so that on every peer it replaces only values no update
    /// has set since (a user's edit outranks it, wherever and whenever made).
    public func refreshSeed(_ id: GlobalID, values: [String: AttributeValue], seed: SeedMark) throws {
        let entity = try requireEntity(of: id)
        guard let table = layout.tableOfEntity[entity] else { throw request("there is no entity named '\(entity)'") }
        var assignments = ["_seed_set = ?", "_seed_version = ?"]
        var arguments: [DatabaseValueConvertible?] = [seed.set, seed.version]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let attribute = model.attribute(name, of: entity), !attribute.isTransient, let column = layout.attributeColumns[entity]?[name] else {
                throw request("entity \(entity) has no stored attribute named '\(name)'")
            }
            guard let normalized = ValueCoder.normalized(value, for: attribute) else {
                throw request("attribute \(entity).\(name) is of type \(attribute.type.rawValue) and cannot hold \(ValueCoder.refusal(of: value, type: attribute.type) ?? "a \(value.kindName) value")")
            }
            assignments.append("\(column.quotedSQLIdentifier) = ?")
            arguments.append(ValueCoder.databaseValue(normalized))
        }
        arguments.append(id.rawValue)
        try db.execute(sql: "UPDATE \(table.quotedSQLIdentifier) SET \(assignments.joined(separator: ", ")) WHERE _gid = ?",
                       arguments: StatementArguments(arguments))
        pending.inserted(id, entity: entity, properties: model.attributes(of: entity).filter { !$0.isTransient }.map(\.name))
    }
}
