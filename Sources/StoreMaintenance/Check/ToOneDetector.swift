import GRDB
import ObjectModel

/// To-one relationships: targets that do not exist or are of the wrong entity, and for one-to-one
/// pairs, targets claimed by several records and pairs whose two columns disagree.
enum ToOneDetector {
    /// Checks every stored to-one relationship.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                guard let column = context.column(relationship.name, of: entity.name), column.kind == .toOne,
                      let targetTable = context.table(of: relationship.destination), try context.tableExists(targetTable) else { continue }
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

    private static func dangling(_ relationship: RelationshipDescription, of entity: String, column: StoredColumn, targetTable: String,
                                 _ context: CheckContext) throws {
        let c = CheckSQL.identifier(column.column)
        let allowed = context.family(of: relationship.destination)
        let sql = """
            SELECT s._gid AS gid, s._entity AS entity, s.\(c) AS target, t._entity AS target_entity
            FROM \(CheckSQL.identifier(column.table)) s LEFT JOIN \(CheckSQL.identifier(targetTable)) t ON t._gid = s.\(c)
            WHERE s._entity IN \(CheckSQL.list(context.family(of: entity))) AND s.\(c) IS NOT NULL
              AND (t._gid IS NULL OR t._entity NOT IN \(CheckSQL.list(allowed)))
            """
        let cursor = try Row.fetchCursor(context.db, sql: sql)
        while let row = try cursor.next() {
            let gid: String = row.stored("gid", as: String.self) ?? "", exact: String = row.stored("entity", as: String.self) ?? "", target: String = row.stored("target", as: String.self) ?? ""
            let targetEntity = row.stored("target_entity", as: String.self)
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

    private static func shared(_ relationship: RelationshipDescription, of entity: String, column: StoredColumn, _ context: CheckContext) throws {
        let c = CheckSQL.identifier(column.column)
        let table = CheckSQL.identifier(column.table)
        let members = CheckSQL.list(context.family(of: entity))
        let sql = """
            SELECT \(c) AS target, _gid, _entity, _created, _updated, _seed_set, _seed_version FROM \(table)
            WHERE _entity IN \(members) AND \(c) IN (
                SELECT \(c) FROM \(table) WHERE _entity IN \(members) AND \(c) IS NOT NULL GROUP BY \(c) HAVING COUNT(*) > 1)
            ORDER BY \(c), _gid
            """
        var groups: [(target: String, records: [FindingRecord])] = []
        for row in try Row.fetchAll(context.db, sql: sql) {
            let target: String = row.stored("target", as: String.self) ?? ""
            if groups.last?.target != target { groups.append((target, [])) }
            groups[groups.count - 1].records.append(DuplicateDetector.record(from: row))
        }
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
                finding.records = group.records
                return finding
            }
        }
    }

    private static func mismatched(_ relationship: RelationshipDescription, inverse: RelationshipDescription, of entity: String,
                                   column: StoredColumn, inverseColumn: StoredColumn, targetTable: String, _ context: CheckContext) throws {
        let c = CheckSQL.identifier(column.column)
        let back = CheckSQL.identifier(inverseColumn.column)
        let sql = """
            SELECT a._gid AS gid, a._entity AS entity, a.\(c) AS target, b.\(back) AS back
            FROM \(CheckSQL.identifier(column.table)) a JOIN \(CheckSQL.identifier(targetTable)) b ON b._gid = a.\(c)
            WHERE a._entity IN \(CheckSQL.list(context.family(of: entity)))
              AND b._entity IN \(CheckSQL.list(context.family(of: relationship.destination)))
              AND (b.\(back) IS NULL OR b.\(back) != a._gid)
            """
        let cursor = try Row.fetchCursor(context.db, sql: sql)
        while let row = try cursor.next() {
            let gid: String = row.stored("gid", as: String.self) ?? "", exact: String = row.stored("entity", as: String.self) ?? "", target: String = row.stored("target", as: String.self) ?? ""
            let pointsBack = row.stored("back", as: String.self)
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
