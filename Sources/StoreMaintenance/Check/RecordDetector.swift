import ObjectModel
import SyncStore

/// Per-record rules (required values, storage classes, ranges, patterns, unknown entities) as one
/// scan per entity table: the store selects only the records that break a rule, with one flag per rule.
enum RecordDetector {
    /// Checks every entity table.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model, let layout = context.layout else { return }
        let builder = RecordRuleBuilder(context: context, model: model)
        for root in model.rootEntities {
            guard let table = layout.table(ofRootEntity: root.name) else { continue }
            try run(builder.rules(forFamilyOf: root, table: table), on: table, context)
        }
    }

    private static func run(_ rules: [RecordRule], on table: String, _ context: CheckContext) throws {
        try context.inspection.forEachRecord(failing: rules.map(\.test), in: table) { match in
            let gid = match.globalID
            for (index, rule) in rules.enumerated() where match.fails(index) {
                let exact = rule.code == .recordUnknownEntity ? rule.entity : match.entity
                context.add(rule.code, entity: exact, property: rule.property) {
                    let value = rule.test.reportsValue ? match.value(of: index).description : nil
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
