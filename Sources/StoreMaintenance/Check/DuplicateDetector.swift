import ObjectModel
import SyncStore

/// Groups of records that must not coexist: several live records of a singleton entity, seed
/// records sharing their identifying attributes, and records breaking a uniqueness constraint.
/// Each group is one finding listing every member.
enum DuplicateDetector {
    /// Checks every singleton, seeded and constrained entity.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            guard let table = context.table(of: entity.name), try context.inspection.tableExists(table) else { continue }
            if entity.facts.isSingleton { try singletons(entity.name, table: table, context) }
            if !entity.facts.seedKey.isEmpty {
                let key = model.identifyingAttributes(of: entity.name)
                try groups(of: entity.name, key: key, table: table, seedsOnly: true, code: .seedDuplicate, context)
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                try groups(of: entity.name, key: constraint, table: table, seedsOnly: false, code: .uniqueViolated, context)
            }
        }
    }

    private static func singletons(_ entity: String, table: String, _ context: CheckContext) throws {
        let records = try context.inspection.records(in: table, holders: context.family(of: entity)).map(FindingRecord.init)
        guard records.count > 1 else { return }
        context.add(.singletonDuplicate, entity: entity) {
            var finding = CheckFinding(
                code: .singletonDuplicate, entity: entity, globalIDs: records.map(\.globalID),
                message: "\(entity) is a singleton entity but has \(records.count) live records",
                hint: "run `storekeep repair`, which keeps the earliest created (ties broken by global ID) and moves relationships to it")
            finding.table = table
            finding.records = records
            return finding
        }
    }

    private static func groups(of entity: String, key: [String], table: String, seedsOnly: Bool, code: CheckCode, _ context: CheckContext) throws {
        var columns: [StoredProperty] = []
        for name in key {
            guard let column = context.column(name, of: entity), column.kind == .attribute else { return }
            columns.append(column)
        }
        for group in try context.inspection.duplicateGroups(in: table, holders: context.family(of: entity), key: columns, seedsOnly: seedsOnly) {
            let shown = zip(key, group.values).map { "\($0.0)=\($0.1.description)" }.joined(separator: ", ")
            context.add(code, entity: entity) {
                var finding = CheckFinding(
                    code: code, entity: entity, globalIDs: group.records.map(\.globalID),
                    message: seedsOnly ? "\(group.records.count) \(entity) seed records share \(shown)"
                        : "\(group.records.count) \(entity) records share \(shown), which the uniqueness constraint (\(key.joined(separator: ", "))) forbids",
                    hint: seedsOnly ? "run `storekeep repair`: it keeps the newest seed version (ties by global ID), moves relationships to it and never deletes a seed record the user modified"
                        : "merge or change the duplicates in the app; `storekeep repair` reports them")
                finding.table = table
                finding.keyAttributes = key
                finding.keyValues = group.values.map(\.description)
                finding.records = group.records.map(FindingRecord.init)
                return finding
            }
        }
    }
}
