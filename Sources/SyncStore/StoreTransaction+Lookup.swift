import GRDB
import ObjectModel

extension StoreTransaction {
    /// The live records of `entity` (and of its sub-entities) whose attributes hold exactly
    /// `values` (a `.null` value matches an empty attribute), sorted by global ID: how a record is
    /// found by its seed key or by the values of a uniqueness constraint.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for an unknown entity or attribute.
    public func records(of entity: String, matching values: [String: AttributeValue]) throws -> [GlobalID] {
        guard model.entity(named: entity) != nil, let table = layout.tableOfEntity[entity] else {
            throw request("there is no entity named '\(entity)' in model \(model.versionName)")
        }
        let family = [entity] + model.descendants(of: entity).map(\.name)
        var conditions = ["_entity IN (\(Array(repeating: "?", count: family.count).joined(separator: ", ")))"]
        var arguments: [DatabaseValueConvertible?] = family
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let attribute = model.attribute(name, of: entity), !attribute.isTransient, let column = layout.attributeColumns[entity]?[name] else {
                throw request("entity \(entity) has no stored attribute named '\(name)'")
            }
            let normalized = ValueCoder.normalized(value, for: attribute) ?? value
            if normalized.isNull {
                conditions.append("\(column.quotedSQLIdentifier) IS NULL")
            } else {
                conditions.append("\(column.quotedSQLIdentifier) = ?")
                arguments.append(ValueCoder.databaseValue(normalized))
            }
        }
        return try String.fetchAll(db, sql: "SELECT _gid FROM \(table.quotedSQLIdentifier) WHERE \(conditions.joined(separator: " AND ")) ORDER BY _gid",
                                   arguments: StatementArguments(arguments)).map(GlobalID.init)
    }
}

extension StoreTransaction {
    /// The members of relationship `relationship` of record `id` as this transaction sees them:
    /// ordered relationships in their order, others by global ID; a to-one relationship gives zero or one.
    public func related(_ relationship: String, of id: GlobalID) throws -> [GlobalID] {
        let entity = try requireEntity(of: id)
        _ = try relationshipStorage(relationship, of: entity)
        return try members(of: relationship, of: id, entity: entity)
    }
}
