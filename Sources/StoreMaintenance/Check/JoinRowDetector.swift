import GRDB
import ObjectModel

/// Join table rows whose owner or target does not exist, or is of an entity the relationship does not allow.
enum JoinRowDetector {
    /// Checks every join table named in `sk_column`.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        // The naming side of each join table: the entity declaring the relationship stored in its `owner` column.
        var owners: [String: (entity: String, relationship: RelationshipDescription)] = [:]
        for (entity, properties) in context.columns {
            for column in properties.values where column.kind == .join && column.column == "owner" {
                guard let declarer = StoreLayoutFacts.declarer(of: column.property, for: entity, in: model),
                      let relationship = model.relationship(column.property, of: declarer) else { continue }
                owners[column.table] = (declarer, relationship)
            }
        }
        for (table, side) in owners.sorted(by: { $0.key < $1.key }) {
            try check(table: table, column: "owner", entity: side.entity, relationship: side.relationship, allowedOf: side.entity, context)
            try check(table: table, column: "target", entity: side.entity, relationship: side.relationship,
                      allowedOf: side.relationship.destination, context)
        }
    }

    private static func check(table: String, column: String, entity: String, relationship: RelationshipDescription, allowedOf allowedRoot: String,
                              _ context: CheckContext) throws {
        guard let recordTable = context.table(of: allowedRoot), try context.tableExists(recordTable) else { return }
        let sql = """
            SELECT j.owner AS owner, j.target AS target, x._entity AS found
            FROM \(CheckSQL.identifier(table)) j LEFT JOIN \(CheckSQL.identifier(recordTable)) x ON x._gid = j.\(column)
            WHERE x._gid IS NULL OR x._entity NOT IN \(CheckSQL.list(context.family(of: allowedRoot)))
            """
        let cursor = try Row.fetchCursor(context.db, sql: sql)
        while let row = try cursor.next() {
            let owner: String = row.stored("owner", as: String.self) ?? "", target: String = row.stored("target", as: String.self) ?? ""
            let found = row.stored("found", as: String.self)
            let missing = column == "owner" ? owner : target
            let other = column == "owner" ? target : owner
            context.add(.relationshipDanglingJoinRow, entity: entity, property: relationship.name) {
                var finding = CheckFinding(
                    code: .relationshipDanglingJoinRow, entity: entity, globalIDs: [other],
                    message: "\(table) row (\(owner), \(target)): its \(column) \(missing) "
                        + (found.map { "is a \($0), not a \(allowedRoot)" } ?? "does not exist"),
                    hint: "run `storekeep repair`, which deletes the join row")
                finding.property = relationship.name
                finding.table = table
                finding.column = column
                finding.owner = owner
                finding.target = target
                finding.targetEntity = found
                return finding
            }
        }
    }
}
