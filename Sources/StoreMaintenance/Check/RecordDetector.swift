import GRDB
import ObjectModel

/// Per-record rules (required values, storage classes, ranges, patterns, unknown entities) as one
/// scan per entity table: SQL selects only the records that break a rule, with one flag per rule.
enum RecordDetector {
    /// Checks every entity table.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        let builder = RecordRuleBuilder(context: context, model: model)
        for root in model.rootEntities {
            let table = "e_\(root.name)"
            guard let present = try context.columns(ofTable: table), present.isSuperset(of: SchemaDetector.fixedColumns) else { continue }
            let rules = builder.rules(forFamilyOf: root)
            try run(rules, on: table, context)
        }
    }

    private static func run(_ rules: [RecordRule], on table: String, _ context: CheckContext) throws {
        guard !rules.isEmpty else { return }
        var selected = ["_gid", "_entity"]
        for (index, rule) in rules.enumerated() {
            selected.append("CASE WHEN \(rule.condition) THEN 1 ELSE 0 END AS f\(index)")
            if let value = rule.valueColumn { selected.append("\(value) AS v\(index)") }
        }
        let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(CheckSQL.identifier(table)) WHERE "
            + rules.map { "(\($0.condition))" }.joined(separator: " OR ")
        let cursor = try Row.fetchCursor(context.db, sql: sql)
        while let row = try cursor.next() {
            let gid: String = row.stored("_gid", as: String.self) ?? ""
            let entity: String = row.stored("_entity", as: String.self) ?? ""
            for (index, rule) in rules.enumerated() where (row.stored("f\(index)", as: Int.self)) == 1 {
                let exact = rule.code == .recordUnknownEntity ? rule.entity : entity
                context.add(rule.code, entity: exact, property: rule.property) {
                    let value = rule.valueColumn == nil ? nil : CheckSQL.describe(row.storedValue("v\(index)"))
                    var finding = CheckFinding(code: rule.code, entity: exact, globalIDs: [gid],
                                               message: rule.message(exact, gid, value), hint: rule.hint)
                    finding.property = rule.property
                    finding.table = table
                    finding.value = value
                    finding.minimum = rule.minimum
                    finding.maximum = rule.maximum
                    finding.pattern = rule.pattern
                    return finding
                }
            }
        }
    }
}
