import ObjectModel
import SyncStore

/// Join table rows whose owner or target does not exist, or is of an entity the relationship does not allow.
enum JoinRowDetector {
    /// Checks every join table the store maps.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model, let layout = context.layout else { return }
        // The naming side of each join table: the entity declaring the relationship stored in its owner side.
        var owners: [String: (entity: String, relationship: RelationshipDescription)] = [:]
        for (entity, properties) in layout.properties {
            for column in properties.values where column.joinSide == .owner {
                guard let declarer = StoreLayoutFacts.declarer(of: column.property, for: entity, in: model),
                      let relationship = model.relationship(column.property, of: declarer) else { continue }
                owners[column.table] = (declarer, relationship)
            }
        }
        for (table, side) in owners.sorted(by: { $0.key < $1.key }) {
            try check(table: table, side: .owner, entity: side.entity, relationship: side.relationship, allowedOf: side.entity, context)
            try check(table: table, side: .target, entity: side.entity, relationship: side.relationship,
                      allowedOf: side.relationship.destination, context)
        }
    }

    private static func check(table: String, side: StoredProperty.JoinSide, entity: String, relationship: RelationshipDescription,
                              allowedOf allowedRoot: String, _ context: CheckContext) throws {
        guard let recordTable = context.table(of: allowedRoot), try context.inspection.tableExists(recordTable) else { return }
        try context.inspection.forEachDanglingJoinRow(in: table, side: side, recordTable: recordTable, allowed: context.family(of: allowedRoot)) { row in
            let owner = row.owner, target = row.target, found = row.foundEntity
            let missing = side == .owner ? owner : target
            let other = side == .owner ? target : owner
            context.add(.relationshipDanglingJoinRow, entity: entity, property: relationship.name) {
                var finding = CheckFinding(
                    code: .relationshipDanglingJoinRow, entity: entity, globalIDs: [other],
                    message: "\(table) row (\(owner), \(target)): its \(side.column) \(missing) "
                        + (found.map { "is a \($0), not a \(allowedRoot)" } ?? "does not exist"),
                    hint: "run `storekeep repair`, which deletes the join row")
                finding.property = relationship.name
                finding.table = table
                finding.column = side.column
                finding.owner = owner
                finding.target = target
                finding.targetEntity = found
                return finding
            }
        }
    }
}
