import GRDB
import ObjectModel

extension StoreTransaction {
    /// Empties the to-one relationship `relationship` of `holder` when it points at something that
    /// cannot be its target: no record at all, or a record of an entity the destination does not allow.
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
        if let targetEntity = try self.entity(of: target), model.entity(targetEntity, isKindOf: description.destination) {
            return false
        }
        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: holder, target: nil, order: nil)
        try touch(holder, entity: entity, properties: [relationship])
        return true
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
        if let targetEntity = try self.entity(of: target),
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
        try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE owner = ? AND target = ?",
                       arguments: [owner.rawValue, target.rawValue])
        guard db.changesCount > 0 else { return false }
        if let ownerEntity = try self.entity(of: owner), let name = joinRelationship(in: table, sourceColumn: "owner", of: ownerEntity) {
            pending.touchedMembership(of: target, in: name, of: owner)
        } else if let targetEntity = try self.entity(of: target), let name = joinRelationship(in: table, sourceColumn: "target", of: targetEntity) {
            pending.touchedMembership(of: owner, in: name, of: target)
        }
        for (side, sourceColumn) in [(owner, "owner"), (target, "target")] {
            guard let entity = try self.entity(of: side), let name = joinRelationship(in: table, sourceColumn: sourceColumn, of: entity) else { continue }
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
    private func joinRelationship(in table: String, sourceColumn: String, of entity: String) -> String? {
        for (name, storage) in (layout.relationships[entity] ?? [:]).sorted(by: { $0.key < $1.key }) {
            if case .join(table, sourceColumn, _, _, _) = storage { return name }
        }
        return nil
    }
}
