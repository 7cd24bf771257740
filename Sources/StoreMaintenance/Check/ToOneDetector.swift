import ObjectModel
import SyncStore

/// To-one relationships: targets that do not exist or are of the wrong entity, and for one-to-one
/// pairs, targets claimed by several records and pairs whose two columns disagree.
enum ToOneDetector {
    /// Checks every stored to-one relationship.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                guard let column = context.column(relationship.name, of: entity.name), column.kind == .toOne,
                      let targetTable = context.table(of: relationship.destination), try context.inspection.tableExists(targetTable) else { continue }
                try dangling(relationship, of: entity.name, column: column, targetTable: targetTable, context)
                if let inverse = StoreLayoutFacts.inverse(of: relationship, in: model), !inverse.isToMany, !inverse.isTransient {
                    try shared(relationship, of: entity.name, column: column, context)
                    if let inverseColumn = context.column(inverse.name, of: relationship.destination), inverseColumn.kind == .toOne {
                        try mismatched(relationship, inverse: inverse, of: entity.name, column: column,
                                       inverseColumn: inverseColumn, targetTable: targetTable, context)
                    }
                }
            }
        }
    }

    private static func dangling(_ relationship: RelationshipDescription, of entity: String, column: StoredProperty, targetTable: String,
                                 _ context: CheckContext) throws {
        try context.inspection.forEachDanglingToOne(column, holders: context.family(of: entity), targetTable: targetTable,
                                                    allowed: context.family(of: relationship.destination)) { found in
            let gid = found.globalID, exact = found.entity, target = found.target
            let targetEntity = found.targetEntity
            let code: CheckCode = targetEntity == nil ? .relationshipDanglingTarget : .relationshipWrongTargetEntity
            context.add(code, entity: exact, property: relationship.name) {
                var finding = CheckFinding(
                    code: code, entity: exact, globalIDs: [gid],
                    message: targetEntity.map { "\(exact) \(gid): \(relationship.name) points at \(target), a \($0), not a \(relationship.destination)" }
                        ?? "\(exact) \(gid): \(relationship.name) points at \(target), which does not exist",
                    hint: "run `storekeep repair`, which sets the relationship to nothing (the record may then lack a required relationship)")
                finding.property = relationship.name
                finding.table = column.table
                finding.column = column.column
                finding.target = target
                finding.targetEntity = targetEntity
                return finding
            }
        }
    }

    private static func shared(_ relationship: RelationshipDescription, of entity: String, column: StoredProperty, _ context: CheckContext) throws {
        let groups = try context.inspection.sharedToOneTargets(column, holders: context.family(of: entity))
        for group in groups {
            context.add(.relationshipSharedTarget, entity: entity, property: relationship.name) {
                var finding = CheckFinding(
                    code: .relationshipSharedTarget, entity: entity, globalIDs: group.records.map(\.globalID),
                    message: "\(group.records.count) \(entity) records claim \(group.target) through the one-to-one relationship \(relationship.name)",
                    hint: "only one record may hold that slot: keep one with `storekeep repair`, or unlink the others in the app")
                finding.property = relationship.name
                finding.inverseProperty = relationship.inverseName
                finding.table = column.table
                finding.column = column.column
                finding.target = group.target
                finding.records = group.records.map(FindingRecord.init)
                return finding
            }
        }
    }

    private static func mismatched(_ relationship: RelationshipDescription, inverse: RelationshipDescription, of entity: String,
                                   column: StoredProperty, inverseColumn: StoredProperty, targetTable: String, _ context: CheckContext) throws {
        try context.inspection.forEachUnreturnedOneToOne(column, inverse: inverseColumn, holders: context.family(of: entity), targetTable: targetTable,
                                                         targets: context.family(of: relationship.destination)) { found in
            let gid = found.globalID, exact = found.entity, target = found.target
            let pointsBack = found.inverseTarget
            context.add(.relationshipInverseMismatch, entity: exact, property: relationship.name) {
                var finding = CheckFinding(
                    code: .relationshipInverseMismatch, entity: exact, globalIDs: [gid],
                    message: "\(exact) \(gid): \(relationship.name) points at \(target), whose \(inverse.name) "
                        + (pointsBack.map { "points at \($0) instead" } ?? "is empty"),
                    hint: "the two sides of a one-to-one relationship must agree; run `storekeep repair`, or set the relationship again in the app")
                finding.property = relationship.name
                finding.inverseProperty = inverse.name
                finding.table = column.table
                finding.column = column.column
                finding.target = target
                finding.inverseTarget = pointsBack
                return finding
            }
        }
    }
}
