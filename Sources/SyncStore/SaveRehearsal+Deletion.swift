import ObjectModel

extension SaveRehearsal {
    /// Rehearses ``StoreTransaction/delete(_:)``, cascade and Deny rules included.
    ///
    /// - Returns: the records deleted, or why a save would refuse (then nothing changes).
    public func delete(_ id: GlobalID) throws -> RehearsedChange {
        try tryChange {
            var visited = Set<GlobalID>()
            var removed: [GlobalID] = []
            try delete(id, visited: &visited, removed: &removed)
            return removed
        }
    }

    /// Rehearses ``StoreTransaction/merge(_:into:)``: the links move to `keeper`, then the duplicate is deleted.
    ///
    /// - Returns: the records deleted (the duplicate first), or why a save would refuse (then nothing changes).
    public func merge(_ duplicate: GlobalID, into keeper: GlobalID) throws -> RehearsedChange {
        try tryChange {
            let entity = try requireEntity(of: duplicate)
            let keeperEntity = try requireEntity(of: keeper)
            guard duplicate != keeper else { throw reader.request("cannot merge record \(duplicate) into itself") }
            guard entity == keeperEntity else {
                throw reader.request("cannot merge \(entity) \(duplicate) into \(keeperEntity) \(keeper): duplicates must be of the same entity")
            }
            var visitedColumns = Set<String>()
            var visitedJoins = Set<String>()
            for holderEntity in model.entities.map(\.name).sorted() {
                for relationship in model.relationships(of: holderEntity).sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                    switch layout.relationships[holderEntity]?[relationship.name] {
                    case .column(let table, let column, _)?:
                        guard model.entity(entity, isKindOf: relationship.destination),
                              visitedColumns.insert("\(table).\(column)").inserted else { continue }
                        try moveColumnReferences(relationship, table: table, column: column, from: duplicate, to: keeper)
                    case .join(let table, let sourceColumn, _, _, _)?:
                        guard visitedJoins.insert("\(table).\(sourceColumn)").inserted else { continue }
                        if model.entity(entity, isKindOf: holderEntity) {
                            try mergeOwnList(relationship.name, entity: entity, from: duplicate, into: keeper)
                        }
                        if model.entity(entity, isKindOf: relationship.destination) {
                            try replaceInHolders(relationship.name, table: table, sourceColumn: sourceColumn, from: duplicate, to: keeper)
                        }
                    default:
                        continue
                    }
                }
            }
            var visited = Set<GlobalID>()
            var removed: [GlobalID] = []
            try delete(duplicate, visited: &visited, removed: &removed)
            return removed
        }
    }

    private func delete(_ id: GlobalID, visited: inout Set<GlobalID>, removed: inout [GlobalID]) throws {
        guard visited.insert(id).inserted else { return }
        let entity = try requireEntity(of: id)
        var cascaded: [GlobalID] = []
        for relationship in model.relationships(of: entity) where !relationship.isTransient {
            let members = try members(of: relationship.name, of: id, entity: entity)
            switch relationship.deletionRule {
            case .deny where !members.isEmpty:
                throw reader.request("cannot delete \(entity) \(id): its relationship \(relationship.name) (deletion rule Deny) still holds \(members.count) record(s)")
            case .cascade:
                cascaded += members
            default:
                break
            }
        }
        try releaseOwnRelationships(of: id, entity: entity)
        try removeReferences(to: id)
        markDeleted(id)
        removed.append(id)
        for member in cascaded where try self.entity(of: member) != nil {
            try delete(member, visited: &visited, removed: &removed)
        }
    }

    private func releaseOwnRelationships(of id: GlobalID, entity: String) throws {
        for relationship in model.relationships(of: entity) where !relationship.isTransient {
            let inverse = StoreLayout.inverse(of: relationship, in: model)
            switch layout.relationships[entity]?[relationship.name] {
            case .column(let table, let column, _)?:
                if let inverse, inverse.isToMany, let target = try currentTarget(table: table, column: column, of: id) {
                    touch(target, entity: try requireEntity(of: target), relationship: inverse.name)
                }
            case .join(let table, let sourceColumn, _, _, _)?:
                let members = try joinMembers(table: table, sourceColumn: sourceColumn, of: id, relationship: relationship.name, entity: entity)
                removeJoinRows(members.map { joinRow(table: table, sourceColumn: sourceColumn, id, $0) })
                if let inverse {
                    for member in members { touch(member, entity: try requireEntity(of: member), relationship: inverse.name) }
                }
            default:
                continue
            }
        }
    }

    private func removeReferences(to id: GlobalID) throws {
        var seenColumns = Set<String>()
        var seenJoins = Set<String>()
        for entity in model.entities.map(\.name).sorted() {
            for (name, storage) in (layout.relationships[entity] ?? [:]).sorted(by: { $0.key < $1.key }) {
                switch storage {
                case .column(let table, let column, _):
                    guard seenColumns.insert("\(table).\(column)").inserted else { continue }
                    for holder in try holders(table: table, column: column, of: id) where holder != id {
                        write(nil, table: table, column: column, of: holder)
                        touch(holder, entity: try requireEntity(of: holder), relationship: name)
                    }
                case .join(let table, let sourceColumn, let targetColumn, _, _):
                    guard seenJoins.insert("\(table).\(sourceColumn)").inserted else { continue }
                    let holders = try joinHolders(table: table, targetColumn: targetColumn, of: id)
                    removeJoinRows(holders.map { joinRow(table: table, sourceColumn: sourceColumn, $0, id) })
                    for holder in holders where holder != id {
                        touch(holder, entity: try requireEntity(of: holder), relationship: name)
                    }
                case .inverseColumn:
                    continue
                }
            }
        }
    }

    private func moveColumnReferences(_ relationship: RelationshipDescription, table: String, column: String,
                                      from duplicate: GlobalID, to keeper: GlobalID) throws {
        let inverse = StoreLayout.inverse(of: relationship, in: model)
        for holder in try holders(table: table, column: column, of: duplicate) where holder != duplicate {
            if let inverse, !inverse.isToMany, let partner = try partner(of: keeper, through: inverse.name), partner != holder {
                try setToOne(relationship.name, of: holder, to: nil)
            } else {
                try setToOne(relationship.name, of: holder, to: holder == keeper ? nil : keeper)
            }
        }
    }

    private func partner(of id: GlobalID, through name: String) throws -> GlobalID? {
        let entity = try requireEntity(of: id)
        guard case .column(let table, let column, _)? = layout.relationships[entity]?[name] else { return nil }
        return try currentTarget(table: table, column: column, of: id)
    }

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

    private func replaceInHolders(_ relationship: String, table: String, sourceColumn: String, from duplicate: GlobalID, to keeper: GlobalID) throws {
        let targetColumn = sourceColumn == "owner" ? "target" : "owner"
        for holder in try joinHolders(table: table, targetColumn: targetColumn, of: duplicate) where holder != duplicate {
            let current = try members(of: relationship, of: holder, entity: try requireEntity(of: holder))
            var replaced: [GlobalID] = []
            for member in current {
                let next = member == duplicate ? keeper : member
                if !replaced.contains(next) { replaced.append(next) }
            }
            try setToMany(relationship, of: holder, to: replaced)
        }
    }

    /// ``StoreTransaction/setToOne(_:of:to:)``, the inverse included.
    private func setToOne(_ relationship: String, of source: GlobalID, to target: GlobalID?) throws {
        let entity = try requireEntity(of: source)
        let (description, storage) = try reader.relationshipStorage(relationship, of: entity)
        guard !description.isToMany, case .column(let table, let column, _) = storage else {
            throw reader.request("\(entity).\(relationship) is a to-many relationship; use setToMany")
        }
        if let target { try requireDestination(target, of: description, entity: entity) }
        let old = try currentTarget(table: table, column: column, of: source)
        guard old != target else { return }
        write(target, table: table, column: column, of: source)
        touch(source, entity: entity, relationship: relationship)
        guard let inverse = StoreLayout.inverse(of: description, in: model) else { return }
        if inverse.isToMany {
            for affected in [old, target].compactMap({ $0 }) {
                touch(affected, entity: try requireEntity(of: affected), relationship: inverse.name)
            }
            return
        }
        if let old { try setColumn(inverse.name, of: old, to: nil) }
        if let target {
            if let partner = try partner(of: target, through: inverse.name), partner != source {
                try setColumn(relationship, of: partner, to: nil)
            }
            try setColumn(inverse.name, of: target, to: source)
        }
    }

    /// ``StoreTransaction/setToMany(_:of:to:)`` for a relationship kept in a join table (the only
    /// kind a merge sets as a list).
    private func setToMany(_ relationship: String, of source: GlobalID, to targets: [GlobalID]) throws {
        let entity = try requireEntity(of: source)
        let (description, storage) = try reader.relationshipStorage(relationship, of: entity)
        guard description.isToMany, case .join(let table, let sourceColumn, _, _, _) = storage else {
            throw reader.request("\(entity).\(relationship) is not a to-many relationship kept in a join table")
        }
        var unique: [GlobalID] = []
        for target in targets where !unique.contains(target) {
            try requireDestination(target, of: description, entity: entity)
            unique.append(target)
        }
        let inverse = StoreLayout.inverse(of: description, in: model)
        let current = try joinMembers(table: table, sourceColumn: sourceColumn, of: source, relationship: relationship, entity: entity)
        for removed in current where !unique.contains(removed) {
            removeJoinRows([joinRow(table: table, sourceColumn: sourceColumn, source, removed)])
            if let inverse { touch(removed, entity: try requireEntity(of: removed), relationship: inverse.name) }
        }
        for member in unique where !current.contains(member) {
            addJoinRow(joinRow(table: table, sourceColumn: sourceColumn, source, member))
            if let inverse { touch(member, entity: try requireEntity(of: member), relationship: inverse.name) }
        }
        touch(source, entity: entity, relationship: relationship)
    }

    /// One side of a one-to-one pair, set without following the inverse again.
    private func setColumn(_ relationship: String, of id: GlobalID, to target: GlobalID?) throws {
        let entity = try requireEntity(of: id)
        guard case .column(let table, let column, _)? = layout.relationships[entity]?[relationship] else { return }
        guard try currentTarget(table: table, column: column, of: id) != target else { return }
        write(target, table: table, column: column, of: id)
        touch(id, entity: entity, relationship: relationship)
    }

    private func requireDestination(_ target: GlobalID, of relationship: RelationshipDescription, entity: String) throws {
        let targetEntity = try requireEntity(of: target)
        guard model.entity(targetEntity, isKindOf: relationship.destination) else {
            throw reader.request("\(entity).\(relationship.name) points to \(relationship.destination), but \(target) is a \(targetEntity)")
        }
    }
}
