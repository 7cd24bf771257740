import GRDB
import ObjectModel

/// To-many relationships with fewer members than required (at least one when not optional, and
/// `minCount` when non-empty) or more than `maxCount`.
enum RelationshipCountDetector {
    /// Checks every to-many relationship that has a bound.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                guard let column = context.column(relationship.name, of: entity.name),
                      let table = context.table(of: entity.name), try context.tableExists(table) else { continue }
                try check(relationship, of: entity.name, column: column, table: table, context)
            }
        }
    }

    private static func check(_ relationship: RelationshipDescription, of entity: String, column: StoredColumn, table: String,
                              _ context: CheckContext) throws {
        var conditions: [String] = []
        let least = relationship.isOptional ? 0 : max(1, relationship.minCount)
        if least > 0 { conditions.append("n < \(least)") }
        if relationship.isOptional && relationship.minCount > 0 { conditions.append("(n > 0 AND n < \(relationship.minCount))") }
        if relationship.maxCount > 0 { conditions.append("n > \(relationship.maxCount)") }
        guard !conditions.isEmpty else { return }
        let counted: String
        switch column.kind {
        case .toManyInverse, .join:
            counted = "SELECT COUNT(*) FROM \(CheckSQL.identifier(column.table)) m WHERE m.\(CheckSQL.identifier(column.column)) = o._gid"
        default:
            return
        }
        let sql = """
            SELECT gid, entity, n FROM (
                SELECT o._gid AS gid, o._entity AS entity, (\(counted)) AS n FROM \(CheckSQL.identifier(table)) o
                WHERE o._entity IN \(CheckSQL.list(context.family(of: entity))))
            WHERE \(conditions.joined(separator: " OR "))
            """
        let policy = context.model?.facts(of: entity).invalidRecordPolicy ?? .keep
        let cursor = try Row.fetchCursor(context.db, sql: sql)
        while let row = try cursor.next() {
            let gid: String = row.stored("gid", as: String.self) ?? "", exact: String = row.stored("entity", as: String.self) ?? "", count: Int = row.stored("n", as: Int.self) ?? 0
            let code: CheckCode = count == 0 ? .recordRequiredRelationship : .recordRelationshipCount
            context.add(code, entity: exact, property: relationship.name) {
                let bounds = "\(relationship.minCount)…\(relationship.maxCount > 0 ? String(relationship.maxCount) : "∞")"
                var finding = CheckFinding(
                    code: code, entity: exact, globalIDs: [gid],
                    message: count == 0 ? "\(exact) \(gid) has no \(relationship.name) (a required to-many relationship to \(relationship.destination))"
                        : "\(exact) \(gid) has \(count) \(relationship.name), outside the allowed count \(bounds)",
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
