import GRDB
import ObjectModel

extension StoreTransaction {
    /// Deletes a record, following the model's deletion rules.
    ///
    /// Every reference to the record is removed (to-one columns that pointed at it become empty,
    /// join rows go), and each record that lost a reference gets an update change. Relationships
    /// with the *cascade* rule delete their destinations too; a *deny* relationship that still has
    /// destinations refuses the delete. The history keeps the values of the record's identifying
    /// attributes (seed key and uniqueness constraints), so de-duplication still works after it.
    public func delete(_ id: GlobalID) throws {
        var visited = Set<GlobalID>()
        try delete(id, visited: &visited)
    }

    private func delete(_ id: GlobalID, visited: inout Set<GlobalID>) throws {
        guard visited.insert(id).inserted else { return }
        let entity = try requireEntity(of: id)
        let table = try table(of: entity)
        var cascaded: [GlobalID] = []
        for relationship in model.relationships(of: entity) where !relationship.isTransient {
            let members = try self.members(of: relationship.name, of: id, entity: entity)
            switch relationship.deletionRule {
            case .deny where !members.isEmpty:
                throw request("cannot delete \(entity) \(id): its relationship \(relationship.name) (deletion rule Deny) still holds \(members.count) record(s)")
            case .cascade:
                cascaded += members
            default:
                break
            }
        }
        let tombstone = try identifyingValues(of: id, entity: entity, table: table)
        try releaseOwnRelationships(of: id, entity: entity)
        try removeReferences(to: id)
        try keepInsertOfRecordLeaving(id, table: table)
        try db.execute(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE _gid = ?", arguments: [id.rawValue])
        pending.deleted(id, entity: entity, tombstone: tombstone)
        for member in cascaded where try self.entity(of: member) != nil {
            try delete(member, visited: &visited)
        }
    }

    /// The current members of a relationship, in their stored order.
    func members(of relationship: String, of id: GlobalID, entity: String) throws -> [GlobalID] {
        guard let storage = layout.relationships[entity]?[relationship] else { return [] }
        switch storage {
        case .column(let table, let column, _):
            return try currentTarget(table: table, column: column, of: id).map { [$0] } ?? []
        case .inverseColumn(let table, let column, let orderColumn):
            let order = orderColumn.map { "\($0.quotedSQLIdentifier), " } ?? ""
            return try String.fetchAll(db, sql: "SELECT _gid FROM \(table.quotedSQLIdentifier) WHERE \(column.quotedSQLIdentifier) = ? ORDER BY \(order)_gid",
                                       arguments: [id.rawValue]).map(GlobalID.init)
        case .join(let table, let sourceColumn, let targetColumn, let sourceOrder, _):
            let order = sourceOrder.map { "\($0), " } ?? ""
            return try String.fetchAll(db, sql: "SELECT \(targetColumn) FROM \(table.quotedSQLIdentifier) WHERE \(sourceColumn) = ? ORDER BY \(order)\(targetColumn)",
                                       arguments: [id.rawValue]).map(GlobalID.init)
        }
    }

    /// Lets go of what the record itself points at: the inverse of each to-one relationship that
    /// is to-many records the change, and the record's own join rows go.
    private func releaseOwnRelationships(of id: GlobalID, entity: String) throws {
        for relationship in model.relationships(of: entity) where !relationship.isTransient {
            let inverse = StoreLayout.inverse(of: relationship, in: model)
            switch layout.relationships[entity]?[relationship.name] {
            case .column(let table, let column, _)?:
                if let inverse, inverse.isToMany, let target = try currentTarget(table: table, column: column, of: id) {
                    try touch(target, entity: try requireEntity(of: target), properties: [inverse.name])
                }
            case .join(let table, let sourceColumn, _, _, _)?:
                let members = try self.members(of: relationship.name, of: id, entity: entity)
                try db.execute(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE \(sourceColumn) = ?", arguments: [id.rawValue])
                if let inverse {
                    for member in members { try touch(member, entity: try requireEntity(of: member), properties: [inverse.name]) }
                }
            default:
                continue
            }
        }
    }

    /// Empties every to-one column that points at `id` and removes every join row that names it.
    private func removeReferences(to id: GlobalID) throws {
        var seenColumns = Set<String>()
        var seenJoins = Set<String>()
        for entity in model.entities.map(\.name).sorted() {
            for (name, storage) in (layout.relationships[entity] ?? [:]).sorted(by: { $0.key < $1.key }) {
                switch storage {
                case .column(let table, let column, let orderColumn):
                    guard seenColumns.insert("\(table).\(column)").inserted else { continue }
                    for holder in try GlobalID.fetch(db, table: table, column: column, equals: id) where holder != id {
                        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: holder, target: nil, order: nil)
                        try touch(holder, entity: try requireEntity(of: holder), properties: [name])
                    }
                case .join(let table, let sourceColumn, let targetColumn, _, _):
                    guard seenJoins.insert("\(table).\(sourceColumn)").inserted else { continue }
                    let holders = try String.fetchAll(db, sql: "SELECT \(sourceColumn) FROM \(table.quotedSQLIdentifier) WHERE \(targetColumn) = ? ORDER BY \(sourceColumn)",
                                                      arguments: [id.rawValue]).map(GlobalID.init)
                    try db.execute(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE \(targetColumn) = ?", arguments: [id.rawValue])
                    for holder in holders where holder != id {
                        try touch(holder, entity: try requireEntity(of: holder), properties: [name])
                    }
                case .inverseColumn:
                    continue
                }
            }
        }
    }

    private func identifyingValues(of id: GlobalID, entity: String, table: String) throws -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for name in model.identifyingAttributes(of: entity) {
            guard let column = layout.attributeColumns[entity]?[name], let attribute = model.attribute(name, of: entity) else { continue }
            let stored = try DatabaseValue.fetchOne(db, sql: "SELECT \(column.quotedSQLIdentifier) FROM \(table.quotedSQLIdentifier) WHERE _gid = ?",
                                                    arguments: [id.rawValue]) ?? .null
            values[name] = ValueCoder.attributeValue(stored, for: attribute.type)
        }
        return values
    }
}
