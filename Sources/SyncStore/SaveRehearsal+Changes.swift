import GRDB
import ObjectModel

extension SaveRehearsal {
    /// Rehearses ``StoreTransaction/clearInvalidReference(_:of:)``.
    @discardableResult
    public func clearInvalidReference(_ relationship: String, of holder: GlobalID) throws -> Bool {
        let entity = try requireEntity(of: holder)
        let (description, storage) = try reader.relationshipStorage(relationship, of: entity)
        guard case .column(let table, let column, _) = storage else {
            throw reader.request("\(entity).\(relationship) is not a to-one relationship")
        }
        guard let target = try currentTarget(table: table, column: column, of: holder) else { return false }
        if let targetEntity = try liveEntity(of: target), model.entity(targetEntity, isKindOf: description.destination) { return false }
        write(nil, table: table, column: column, of: holder)
        touch(holder, entity: entity, relationship: relationship)
        return true
    }

    /// Rehearses ``StoreTransaction/clearInvalidReferences(_:ofRecordsOf:_:)``: the store is asked
    /// about many records at once, and only records this rehearsal changed are looked at one by one.
    @discardableResult
    public func clearInvalidReferences(_ relationship: String, ofRecordsOf entity: String, _ holders: [GlobalID]) throws -> [GlobalID] {
        guard case .column(let table, let column, _)? = layout.relationships[entity]?[relationship] else {
            throw reader.request("\(entity).\(relationship) is not a to-one relationship")
        }
        let key = "\(table).\(column)"
        let untouched = holders.filter { !deleted.contains($0) && overriddenTarget(ColumnSlot(record: $0, column: key)) == nil }
        let invalid = Set(try reader.invalidReferenceHolders(relationship, ofRecordsOf: entity, untouched))
        var cleared: [GlobalID] = []
        for holder in holders where !deleted.contains(holder) {
            if overriddenTarget(ColumnSlot(record: holder, column: key)) != nil {
                if try clearInvalidReference(relationship, of: holder) { cleared.append(holder) }
            } else if invalid.contains(holder) {
                write(nil, table: table, column: column, of: holder)
                touch(holder, entity: entity, relationship: relationship)
                cleared.append(holder)
            }
        }
        return cleared
    }

    /// Rehearses ``StoreTransaction/releaseUnreturnedReference(_:of:)``.
    @discardableResult
    public func releaseUnreturnedReference(_ relationship: String, of holder: GlobalID) throws -> Bool {
        let entity = try requireEntity(of: holder)
        let (description, storage) = try reader.relationshipStorage(relationship, of: entity)
        guard case .column(let table, let column, _) = storage,
              let inverse = StoreLayout.inverse(of: description, in: model), !inverse.isToMany else {
            throw reader.request("\(entity).\(relationship) is not one side of a one-to-one relationship")
        }
        guard let target = try currentTarget(table: table, column: column, of: holder) else { return false }
        if let targetEntity = try liveEntity(of: target),
           case .column(let inverseTable, let inverseColumn, _)? = layout.relationships[targetEntity]?[inverse.name],
           try currentTarget(table: inverseTable, column: inverseColumn, of: target) == holder {
            return false
        }
        write(nil, table: table, column: column, of: holder)
        touch(holder, entity: entity, relationship: relationship)
        return true
    }

    /// Rehearses ``StoreTransaction/removeJoinRow(in:owner:target:)``.
    @discardableResult
    public func removeJoinRow(in table: String, owner: GlobalID, target: GlobalID) throws -> Bool {
        guard layout.joinTables.contains(table) else { throw reader.request("there is no join table named '\(table)'") }
        let row = JoinRow(table: table, owner: owner, target: target)
        guard try joinHolders(table: table, targetColumn: "target", of: target).contains(owner) else { return false }
        removeJoinRows([row])
        for (side, sourceColumn) in [(owner, "owner"), (target, "target")] {
            guard let entity = try liveEntity(of: side),
                  let name = reader.joinRelationship(in: table, sourceColumn: sourceColumn, of: entity) else { continue }
            touch(side, entity: entity, relationship: name)
        }
        return true
    }

    /// Rehearses ``StoreTransaction/deletionBlocker(of:)``.
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

    /// The digests of external files the deleted records referred to and no live record refers to
    /// any more, sorted: the files a deletion leaves orphaned.
    public func releasedBlobDigests() throws -> [String] {
        guard !deleted.isEmpty else { return [] }
        var columns: [(table: String, column: String)] = []
        var seen = Set<String>()
        for entity in model.entities {
            for attribute in model.attributes(of: entity.name) where attribute.type.isBinary && !attribute.isTransient {
                guard let table = layout.tableOfEntity[entity.name], let column = layout.attributeColumns[entity.name]?[attribute.name],
                      seen.insert("\(table).\(column)").inserted else { continue }
                columns.append((table, column))
            }
        }
        var candidates = Set<String>()
        for id in deleted.sorted() {
            guard let found = try reader.locate(id) else { continue }
            for (table, column) in columns where table == found.table {
                let statement = try reader.db.cachedStatement(
                    sql: "SELECT \(column.quotedSQLIdentifier) FROM \(table.quotedSQLIdentifier) WHERE _gid = ?")
                if let value = (try DatabaseValue.fetchOne(statement, arguments: [id.rawValue])).flatMap(String.fromDatabaseValue),
                   let digest = BlobStore.digest(inReference: value) {
                    candidates.insert(digest)
                }
            }
        }
        guard !candidates.isEmpty else { return [] }
        var stillReferred = Set<String>()
        for (table, column) in columns {
            let c = column.quotedSQLIdentifier
            let rows = try Row.fetchCursor(reader.db, sql: "SELECT _gid, \(c) FROM \(table.quotedSQLIdentifier) WHERE typeof(\(c)) = 'text'")
            while let row = try rows.next() {
                guard let gid = String.fromDatabaseValue(row[0]), !deleted.contains(GlobalID(gid)),
                      let value = String.fromDatabaseValue(row[1]), let digest = BlobStore.digest(inReference: value),
                      candidates.contains(digest) else { continue }
                stillReferred.insert(digest)
            }
        }
        return candidates.subtracting(stillReferred).sorted()
    }

    /// The entity of `id` when it is a live record of an entity of the model; `nil` otherwise
    /// (missing, deleted, or a row written around storekeep).
    func liveEntity(of id: GlobalID) throws -> String? {
        guard !deleted.contains(id) else { return nil }
        return try reader.locate(id)?.entity
    }
}
