import ObjectModel
import SyncStore

/// To-many relationships with fewer members than required (at least one when not optional, and
/// `minCount` when non-empty) or more than `maxCount`.
enum RelationshipCountDetector {
    /// Checks every to-many relationship that has a bound.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                guard let column = context.column(relationship.name, of: entity.name),
                      let table = context.table(of: entity.name), try context.inspection.tableExists(table) else { continue }
                try check(relationship, of: entity.name, column: column, table: table, context)
            }
        }
    }

    private static func check(_ relationship: RelationshipDescription, of entity: String, column: StoredProperty, table: String,
                              _ context: CheckContext) throws {
        let least = relationship.isOptional ? 0 : max(1, relationship.minCount)
        let bounds = MemberCountBounds(fewerThan: least > 0 ? least : nil,
                                       nonEmptyFewerThan: relationship.isOptional && relationship.minCount > 0 ? relationship.minCount : nil,
                                       moreThan: relationship.maxCount > 0 ? relationship.maxCount : nil)
        let policy = context.model?.facts(of: entity).invalidRecordPolicy ?? .keep
        try context.inspection.forEachMemberCount(of: column, ownerTable: table, holders: context.family(of: entity), outside: bounds) { found in
            let gid = found.globalID, exact = found.entity, count = found.count
            let code: CheckCode = count == 0 ? .recordRequiredRelationship : .recordRelationshipCount
            context.add(code, entity: exact, property: relationship.name) {
                let allowed = "\(relationship.minCount)…\(relationship.maxCount > 0 ? String(relationship.maxCount) : "∞")"
                var finding = CheckFinding(
                    code: code, entity: exact, globalIDs: [gid],
                    message: count == 0 ? "\(exact) \(gid) has no \(relationship.name) (a required to-many relationship to \(relationship.destination))"
                        : "\(exact) \(gid) has \(count) \(relationship.name), outside the allowed count \(allowed)",
                    hint: InvalidRecordHint.text(for: policy))
                finding.property = relationship.name
                finding.table = column.table
                finding.count = count
                finding.minimum = String(relationship.isOptional ? relationship.minCount : max(1, relationship.minCount))
                finding.maximum = relationship.maxCount > 0 ? String(relationship.maxCount) : nil
                return finding
            }
        }
    }
}
