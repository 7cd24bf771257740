import GRDB
import ObjectModel

extension StoreTransaction {
    /// Merges a duplicate record into the record that stays, then deletes the duplicate.
    ///
    /// Every link to the duplicate moves to `keeper`:
    /// - a to-one relationship of any record that points at the duplicate points at `keeper`
    ///   instead (appended at the end of `keeper`'s list when that list is ordered); when the
    ///   relationship is one-to-one and `keeper` already has a partner, the holder is let go instead,
    ///   because one slot cannot hold two records;
    /// - join rows (to-many relationships stored in a join table) that name the duplicate name
    ///   `keeper` instead, on either side; a link `keeper` already has is not doubled.
    ///
    /// The duplicate's own to-one values and attribute values go with it. Every record whose
    /// relationships changed gets an update change, like any other save, so the merge reaches other
    /// peers through the history. Holders are visited in a fixed order (entities and relationships
    /// by name, holders by position, then global ID), so two peers merging the same content end
    /// with the same content.
    ///
    /// - Parameters:
    ///   - duplicate: the record to remove.
    ///   - keeper: the record that stays; of the same exact entity.
    /// - Throws: ``StoreError`` (`invalidRequest`) when either record is missing, when they are
    ///   the same record or of different entities, or when deleting the duplicate is refused.
    public func merge(_ duplicate: GlobalID, into keeper: GlobalID) throws {
        let entity = try requireEntity(of: duplicate)
        let keeperEntity = try requireEntity(of: keeper)
        guard duplicate != keeper else { throw request("cannot merge record \(duplicate) into itself") }
        guard entity == keeperEntity else {
            throw request("cannot merge \(entity) \(duplicate) into \(keeperEntity) \(keeper): duplicates must be of the same entity")
        }
        var visitedColumns = Set<String>()
        var visitedJoins = Set<String>()
        for holderEntity in model.entities.map(\.name).sorted() {
            for relationship in model.relationships(of: holderEntity).sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                switch layout.relationships[holderEntity]?[relationship.name] {
                case .column(let table, let column, let orderColumn)?:
                    guard model.entity(entity, isKindOf: relationship.destination),
                          visitedColumns.insert("\(table).\(column)").inserted else { continue }
                    try moveColumnReferences(relationship, table: table, column: column, orderColumn: orderColumn,
                                             from: duplicate, to: keeper)
                case .join(let table, let sourceColumn, _, _, _)?:
                    guard visitedJoins.insert("\(table).\(sourceColumn)").inserted else { continue }
                    if model.entity(entity, isKindOf: holderEntity) {
                        try mergeOwnList(relationship.name, entity: entity, from: duplicate, into: keeper)
                    }
                    if model.entity(entity, isKindOf: relationship.destination) {
                        try replaceInHolders(relationship.name, storageKey: (table, sourceColumn), from: duplicate, to: keeper)
                    }
                default:
                    continue
                }
            }
        }
        try delete(duplicate)
    }

    /// Points every to-one column that holds `duplicate` at `keeper` (or lets it go, for a taken one-to-one slot).
    private func moveColumnReferences(
        _ relationship: RelationshipDescription, table: String, column: String, orderColumn: String?,
        from duplicate: GlobalID, to keeper: GlobalID
    ) throws {
        let order = orderColumn.map { "\($0.quotedSQLIdentifier), " } ?? ""
        let holders = try String.fetchAll(
            db, sql: "SELECT _gid FROM \(table.quotedSQLIdentifier) WHERE \(column.quotedSQLIdentifier) = ? ORDER BY \(order)_gid",
            arguments: [duplicate.rawValue]
        ).map(GlobalID.init)
        let inverse = StoreLayout.inverse(of: relationship, in: model)
        for holder in holders where holder != duplicate {
            if let inverse, !inverse.isToMany, let partner = try partner(of: keeper, through: inverse.name), partner != holder {
                try setToOne(relationship.name, of: holder, to: nil)
            } else {
                try setToOne(relationship.name, of: holder, to: holder == keeper ? nil : keeper)
            }
        }
    }

    /// The record the one-to-one relationship `name` of `id` holds, if any.
    private func partner(of id: GlobalID, through name: String) throws -> GlobalID? {
        let entity = try requireEntity(of: id)
        guard case .column(let table, let column, _)? = layout.relationships[entity]?[name] else { return nil }
        return try currentTarget(table: table, column: column, of: id)
    }

    /// Adds the duplicate's members of its own join-stored to-many relationship to the keeper's, then empties the duplicate's.
    private func mergeOwnList(_ relationship: String, entity: String, from duplicate: GlobalID, into keeper: GlobalID) throws {
        let moving = try members(of: relationship, of: duplicate, entity: entity)
        guard !moving.isEmpty else { return }
        let kept = try members(of: relationship, of: keeper, entity: entity)
        var merged = kept
        for member in moving where member != duplicate && member != keeper && !merged.contains(member) {
            merged.append(member)
        }
        try setToMany(relationship, of: duplicate, to: [])
        if merged != kept { try setToMany(relationship, of: keeper, to: merged) }
    }

    /// In every list (of a join-stored to-many relationship) that holds `duplicate`, puts `keeper` in its place.
    private func replaceInHolders(
        _ relationship: String, storageKey: (table: String, sourceColumn: String), from duplicate: GlobalID, to keeper: GlobalID
    ) throws {
        let targetColumn = storageKey.sourceColumn == "owner" ? "target" : "owner"
        let holders = try String.fetchAll(
            db, sql: "SELECT \(storageKey.sourceColumn) FROM \(storageKey.table.quotedSQLIdentifier) WHERE \(targetColumn) = ? ORDER BY \(storageKey.sourceColumn)",
            arguments: [duplicate.rawValue]
        ).map(GlobalID.init)
        for holder in holders where holder != duplicate {
            let holderEntity = try requireEntity(of: holder)
            let current = try members(of: relationship, of: holder, entity: holderEntity)
            var replaced: [GlobalID] = []
            for member in current {
                let next = member == duplicate ? keeper : member
                if !replaced.contains(next) { replaced.append(next) }
            }
            try setToMany(relationship, of: holder, to: replaced)
        }
    }
}
