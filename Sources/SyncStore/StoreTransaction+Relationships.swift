import GRDB
import ObjectModel

extension StoreTransaction {
    /// Points the to-one relationship `relationship` of `source` at `target` (or at nothing).
    ///
    /// The inverse relationship follows: a to-many inverse gains the source (at the end, when
    /// ordered); a to-one inverse is moved, and whatever it pointed at before lets go.
    public func setToOne(_ relationship: String, of source: GlobalID, to target: GlobalID?) throws {
        let entity = try requireEntity(of: source)
        let (description, storage) = try relationshipStorage(relationship, of: entity)
        guard !description.isToMany, case .column(let table, let column, let orderColumn) = storage else {
            throw request("\(entity).\(relationship) is a to-many relationship; use setToMany")
        }
        if let target { try requireDestination(target, of: description, entity: entity) }
        let old = try currentTarget(table: table, column: column, of: source)
        guard old != target else { return }
        var order: Int64?
        if let target, let orderColumn {
            let last = try db.storedValue(Int64.self, sql: "SELECT MAX(\(orderColumn.quotedSQLIdentifier)) FROM \(table.quotedSQLIdentifier) WHERE \(column.quotedSQLIdentifier) = ?",
                                          arguments: [target.rawValue], table: table, row: "the positions in \(target)'s list", store: store.path)
            order = try last.map { try StoreError.number(after: $0, "the last position in \(target)'s list", path: store.path) } ?? 0
        }
        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: source, target: target, order: order)
        try touch(source, entity: entity, properties: [relationship])
        guard let inverse = StoreLayout.inverse(of: description, in: model) else { return }
        if inverse.isToMany {
            for affected in [old, target].compactMap({ $0 }) {
                try touch(affected, entity: try requireEntity(of: affected), properties: [inverse.name])
            }
            return
        }
        // One-to-one: keep both sides in step.
        if let old {
            try setColumn(inverse.name, of: old, to: nil)
        }
        if let target {
            let targetEntity = try requireEntity(of: target)
            if case .column(let inverseTable, let inverseColumn, _)? = layout.relationships[targetEntity]?[inverse.name],
               let partner = try currentTarget(table: inverseTable, column: inverseColumn, of: target), partner != source {
                try setColumn(relationship, of: partner, to: nil)
            }
            try setColumn(inverse.name, of: target, to: source)
        }
    }

    /// Makes `targets` the members of the to-many relationship `relationship` of `source`, in that order.
    ///
    /// Members no longer listed are removed (their inverse lets go); duplicates in `targets` count once.
    public func setToMany(_ relationship: String, of source: GlobalID, to targets: [GlobalID]) throws {
        let entity = try requireEntity(of: source)
        let (description, storage) = try relationshipStorage(relationship, of: entity)
        guard description.isToMany else {
            throw request("\(entity).\(relationship) is a to-one relationship; use setToOne")
        }
        var unique: [GlobalID] = []
        for target in targets where !unique.contains(target) {
            try requireDestination(target, of: description, entity: entity)
            unique.append(target)
        }
        let inverse = StoreLayout.inverse(of: description, in: model)
        switch storage {
        case .column:
            throw request("\(entity).\(relationship) is stored as a to-one column")
        case .inverseColumn(let table, let column, let orderColumn):
            let current = try GlobalID.fetch(db, table: table, column: column, equals: source)
            for removed in current where !unique.contains(removed) {
                try writeColumn(table: table, column: column, orderColumn: orderColumn, of: removed, target: nil, order: nil)
                if let inverse { try touch(removed, entity: try requireEntity(of: removed), properties: [inverse.name]) }
            }
            for (index, member) in unique.enumerated() {
                let previous = try currentTarget(table: table, column: column, of: member)
                try writeColumn(table: table, column: column, orderColumn: orderColumn, of: member, target: source,
                                order: orderColumn == nil ? nil : Int64(index))
                if let previous, previous != source {
                    try touch(previous, entity: try requireEntity(of: previous), properties: [relationship])
                }
                if previous != source || orderColumn != nil, let inverse {
                    try touch(member, entity: try requireEntity(of: member), properties: [inverse.name])
                }
            }
        case .join(let table, let sourceColumn, let targetColumn, let sourceOrder, let targetOrder):
            let quoted = table.quotedSQLIdentifier
            let current = try String.fetchAll(db, sql: "SELECT \(targetColumn) FROM \(quoted) WHERE \(sourceColumn) = ?",
                                              arguments: [source.rawValue]).map(GlobalID.init)
            for removed in current where !unique.contains(removed) {
                try db.execute(sql: "DELETE FROM \(quoted) WHERE \(sourceColumn) = ? AND \(targetColumn) = ?",
                               arguments: [source.rawValue, removed.rawValue])
                pending.touchedMembership(of: removed, in: relationship, of: source)
                if let inverse { try touch(removed, entity: try requireEntity(of: removed), properties: [inverse.name]) }
            }
            for (index, member) in unique.enumerated() {
                if current.contains(member) {
                    if let sourceOrder {
                        pending.touchedMembership(of: member, in: relationship, of: source)
                        try db.execute(sql: "UPDATE \(quoted) SET \(sourceOrder) = ? WHERE \(sourceColumn) = ? AND \(targetColumn) = ?",
                                       arguments: [index, source.rawValue, member.rawValue])
                    }
                    continue
                }
                var memberOrder: Int64?
                if let targetOrder {
                    let last = try db.storedValue(Int64.self, sql: "SELECT MAX(\(targetOrder)) FROM \(quoted) WHERE \(targetColumn) = ?",
                                                  arguments: [member.rawValue], table: table, row: "the positions in \(member)'s list", store: store.path)
                    memberOrder = try last.map { try StoreError.number(after: $0, "the last position in \(member)'s list", path: store.path) } ?? 0
                }
                let orderForSource: Int64? = sourceOrder == nil ? nil : Int64(index)
                let columns = [sourceColumn, targetColumn, "\(sourceColumn)_order", "\(targetColumn)_order"]
                try db.execute(sql: "INSERT INTO \(quoted) (\(columns.joined(separator: ", "))) VALUES (?, ?, ?, ?)",
                               arguments: [source.rawValue, member.rawValue, orderForSource, memberOrder])
                pending.touchedMembership(of: member, in: relationship, of: source)
                if let inverse { try touch(member, entity: try requireEntity(of: member), properties: [inverse.name]) }
            }
        }
        try touch(source, entity: entity, properties: [relationship])
    }

    /// The description and storage of relationship `name` of `entity`.
    func relationshipStorage(_ name: String, of entity: String) throws -> (RelationshipDescription, RelationshipStorage) {
        guard let description = model.relationship(name, of: entity) else {
            throw request("entity \(entity) has no relationship named '\(name)'")
        }
        guard !description.isTransient, let storage = layout.relationships[entity]?[name] else {
            throw request("relationship \(entity).\(name) is transient and never stored")
        }
        return (description, storage)
    }

    private func requireDestination(_ target: GlobalID, of relationship: RelationshipDescription, entity: String) throws {
        let targetEntity = try requireEntity(of: target)
        guard model.entity(targetEntity, isKindOf: relationship.destination) else {
            throw request("\(entity).\(relationship.name) points to \(relationship.destination), but \(target) is a \(targetEntity)")
        }
    }

    func currentTarget(table: String, column: String, of id: GlobalID) throws -> GlobalID? {
        let statement = try db.cachedStatement(sql: "SELECT \(column.quotedSQLIdentifier) FROM \(table.quotedSQLIdentifier) WHERE _gid = ?")
        return try String.fetchOne(statement, arguments: [id.rawValue]).map(GlobalID.init)
    }

    func writeColumn(table: String, column: String, orderColumn: String?, of id: GlobalID, target: GlobalID?, order: Int64?) throws {
        var sql = "UPDATE \(table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = ?"
        var arguments: [DatabaseValueConvertible?] = [target?.rawValue]
        if let orderColumn {
            sql += ", \(orderColumn.quotedSQLIdentifier) = ?"
            arguments.append(order)
        }
        arguments.append(id.rawValue)
        try db.cachedStatement(sql: sql + " WHERE _gid = ?").execute(arguments: StatementArguments(arguments))
    }

    /// Sets one side of a one-to-one pair without following the inverse again.
    private func setColumn(_ relationship: String, of id: GlobalID, to target: GlobalID?) throws {
        let entity = try requireEntity(of: id)
        guard case .column(let table, let column, let orderColumn)? = layout.relationships[entity]?[relationship] else { return }
        guard try currentTarget(table: table, column: column, of: id) != target else { return }
        try writeColumn(table: table, column: column, orderColumn: orderColumn, of: id, target: target, order: nil)
        try touch(id, entity: entity, properties: [relationship])
    }
}

extension GlobalID {
    /// The global IDs of the rows of `table` whose `column` holds `value`, ordered by global ID.
    static func fetch(_ db: Database, table: String, column: String, equals value: GlobalID) throws -> [GlobalID] {
        let statement = try db.cachedStatement(
            sql: "SELECT _gid FROM \(table.quotedSQLIdentifier) WHERE \(column.quotedSQLIdentifier) = ? ORDER BY _gid")
        return try String.fetchAll(statement, arguments: [value.rawValue]).map(GlobalID.init)
    }
}
