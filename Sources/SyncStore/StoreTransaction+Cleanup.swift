import Foundation
import GRDB
import ObjectModel

extension StoreTransaction {
    /// Empties the to-one relationship `relationship` of `holder` when it points at something that
    /// cannot be its target: no record at all, a record of an entity the destination does not allow,
    /// or a row that names no entity of the model (written around storekeep).
    ///
    /// Unlike ``setToOne(_:of:to:)`` this does not follow the inverse: the old target is missing or
    /// is not the inverse's kind. The holder gets an update change naming the relationship.
    ///
    /// - Returns: whether the column was emptied (`false` when it holds a valid target or nothing).
    @discardableResult
    public func clearInvalidReference(_ relationship: String, of holder: GlobalID) throws -> Bool {
        let entity = try requireEntity(of: holder)
        let (description, storage) = try relationshipStorage(relationship, of: entity)
        guard case .column(let table, let column, let orderColumn) = storage else {
            throw request("\(entity).\(relationship) is not a to-one relationship")
        }
        guard let target = try currentTarget(table: table, column: column, of: holder) else { return false }
        if let targetEntity = try locate(target)?.entity, model.entity(targetEntity, isKindOf: description.destination) {
            return false
        }
        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: holder, target: nil, order: nil)
        try touch(holder, entity: entity, properties: [relationship])
        return true
    }

    /// ``clearInvalidReference(_:of:)`` for many records of one exact entity at once: a few SQL
    /// statements per 10,000 records instead of several per record (a repair may empty a million).
    ///
    /// Each holder that exists, is a `entity`, and whose `relationship` points at no record or at
    /// a record of an entity the destination does not allow, has it emptied and gets an update
    /// change naming it, in the order given.
    ///
    /// - Returns: the holders whose relationship was emptied, in the order given.
    @discardableResult
    public func clearInvalidReferences(_ relationship: String, ofRecordsOf entity: String, _ holders: [GlobalID]) throws -> [GlobalID] {
        guard case .column(let table, let column, let orderColumn) = try relationshipStorage(relationship, of: entity).1 else {
            throw request("\(entity).\(relationship) is not a to-one relationship")
        }
        let order = orderColumn.map { ", \($0.quotedSQLIdentifier) = NULL" } ?? ""
        let empty = try db.cachedStatement(
            sql: "UPDATE \(table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = NULL\(order) WHERE _gid IN (SELECT value FROM json_each(?))")
        let stamp = try db.cachedStatement(sql: "UPDATE \(table.quotedSQLIdentifier) SET _updated = ? WHERE _gid IN (SELECT value FROM json_each(?))")
        let found = try invalidReferenceHolders(relationship, ofRecordsOf: entity, holders)
        var start = found.startIndex
        while start < found.endIndex {
            let chunk = found[start..<min(start + Self.chunkSize, found.endIndex)]
            start = chunk.endIndex
            try empty.execute(arguments: [try Self.jsonArray(chunk.map(\.rawValue))])
            let stamped = chunk.filter { !pending.wasInserted($0) }
            if !stamped.isEmpty { try stamp.execute(arguments: [now.timeIntervalSince1970, try Self.jsonArray(stamped.map(\.rawValue))]) }
        }
        for holder in found { pending.updated(holder, entity: entity, properties: [relationship]) }
        return found
    }

    /// The holders among `holders` (records of exactly `entity`) whose to-one `relationship` points
    /// at no record or at a record of an entity the destination does not allow, in the order given.
    func invalidReferenceHolders(_ relationship: String, ofRecordsOf entity: String, _ holders: [GlobalID]) throws -> [GlobalID] {
        let (description, storage) = try relationshipStorage(relationship, of: entity)
        guard case .column(let table, let column, _) = storage else {
            throw request("\(entity).\(relationship) is not a to-one relationship")
        }
        let destinationTable = try self.table(of: description.destination)
        let allowed = [description.destination] + model.descendants(of: description.destination).map(\.name)
        let marks = Array(repeating: "?", count: allowed.count).joined(separator: ", ")
        let c = column.quotedSQLIdentifier
        let invalid = try db.cachedStatement(sql: """
            SELECT h.value FROM json_each(?) h JOIN \(table.quotedSQLIdentifier) s ON s._gid = h.value
            WHERE s._entity = ? AND s.\(c) IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM \(destinationTable.quotedSQLIdentifier) t WHERE t._gid = s.\(c) AND t._entity IN (\(marks)))
            ORDER BY h.key
            """)
        var found: [GlobalID] = []
        var start = holders.startIndex
        while start < holders.endIndex {
            let chunk = holders[start..<min(start + Self.chunkSize, holders.endIndex)]
            start = chunk.endIndex
            found += try String.fetchAll(invalid, arguments: StatementArguments([try Self.jsonArray(chunk.map(\.rawValue)), entity] + allowed))
                .map(GlobalID.init)
        }
        return found
    }

    /// How many global IDs one `json_each` statement is given at a time.
    static let chunkSize = 10_000

    /// A JSON array of strings, for `json_each(?)`.
    static func jsonArray(_ values: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    }

    /// Empties the one-to-one relationship `relationship` of `holder` when its target does not point
    /// back at `holder`: the slot belongs to another record (two records competing for one slot), or
    /// the pair disagrees. The target and its partner are left as they are.
    ///
    /// - Returns: whether the column was emptied (`false` when the pair agrees or the column is empty).
    @discardableResult
    public func releaseUnreturnedReference(_ relationship: String, of holder: GlobalID) throws -> Bool {
        let entity = try requireEntity(of: holder)
        let (description, storage) = try relationshipStorage(relationship, of: entity)
        guard case .column(let table, let column, let orderColumn) = storage,
              let inverse = StoreLayout.inverse(of: description, in: model), !inverse.isToMany else {
            throw request("\(entity).\(relationship) is not one side of a one-to-one relationship")
        }
        guard let target = try currentTarget(table: table, column: column, of: holder) else { return false }
        if let targetEntity = try locate(target)?.entity,
           case .column(let inverseTable, let inverseColumn, _)? = layout.relationships[targetEntity]?[inverse.name],
           try currentTarget(table: inverseTable, column: inverseColumn, of: target) == holder {
            return false
        }
        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: holder, target: nil, order: nil)
        try touch(holder, entity: entity, properties: [relationship])
        return true
    }

    /// Removes a row of a join table one of whose sides names no record (or a record of the wrong entity).
    ///
    /// The side that does exist gets an update change naming its relationship.
    ///
    /// - Parameters:
    ///   - table: the join table (`j_…`, see docs/format.md).
    ///   - owner: the row's `owner` value.
    ///   - target: the row's `target` value.
    /// - Returns: whether a row was removed.
    @discardableResult
    public func removeJoinRow(in table: String, owner: GlobalID, target: GlobalID) throws -> Bool {
        guard layout.joinTables.contains(table) else { throw request("there is no join table named '\(table)'") }
        try db.execute(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE owner = ? AND target = ?",
                       arguments: [owner.rawValue, target.rawValue])
        guard db.changesCount > 0 else { return false }
        if let ownerEntity = try self.entity(of: owner), let name = joinRelationship(in: table, sourceColumn: "owner", of: ownerEntity) {
            pending.touchedMembership(of: target, in: name, of: owner)
        } else if let targetEntity = try self.entity(of: target), let name = joinRelationship(in: table, sourceColumn: "target", of: targetEntity) {
            pending.touchedMembership(of: owner, in: name, of: target)
        }
        for (side, sourceColumn) in [(owner, "owner"), (target, "target")] {
            guard let entity = try locate(side)?.entity, let name = joinRelationship(in: table, sourceColumn: sourceColumn, of: entity) else { continue }
            try touch(side, entity: entity, properties: [name])
        }
        return true
    }

    /// Why deleting `id` would be refused (a *deny* relationship that still holds records), or `nil`.
    public func deletionBlocker(of id: GlobalID) throws -> String? {
        let entity = try requireEntity(of: id)
        for relationship in model.relationships(of: entity) where !relationship.isTransient && relationship.deletionRule == .deny {
            let members = try members(of: relationship.name, of: id, entity: entity)
            if !members.isEmpty {
                return "its relationship \(relationship.name) (deletion rule Deny) still holds \(members.count) record(s)"
            }
        }
        return nil
    }

    /// The relationship of `entity` stored in `table` with the record on the `sourceColumn` side.
    func joinRelationship(in table: String, sourceColumn: String, of entity: String) -> String? {
        for (name, storage) in (layout.relationships[entity] ?? [:]).sorted(by: { $0.key < $1.key }) {
            if case .join(table, sourceColumn, _, _, _) = storage { return name }
        }
        return nil
    }
}
