import GRDB
import ObjectModel

/// Groups of records that must not coexist: several live records of a singleton entity, seed
/// records sharing their identifying attributes, and records breaking a uniqueness constraint.
/// Each group is one finding listing every member.
enum DuplicateDetector {
    /// The fixed columns a group member is described by.
    static let recordColumns = "_gid, _entity, _created, _updated, _seed_set, _seed_version"

    /// Checks every singleton, seeded and constrained entity.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for entity in model.entities {
            guard let table = context.table(of: entity.name), try context.tableExists(table) else { continue }
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

    /// A group member from a row holding ``recordColumns``.
    static func record(from row: Row) -> FindingRecord {
        FindingRecord(globalID: row.stored("_gid", as: String.self) ?? "", entity: row.stored("_entity", as: String.self) ?? "",
                      created: row.stored("_created", as: Double.self) ?? 0, updated: row.stored("_updated", as: Double.self),
                      seedSet: row.stored("_seed_set", as: String.self), seedVersion: row.stored("_seed_version", as: Int64.self))
    }

    private static func singletons(_ entity: String, table: String, _ context: CheckContext) throws {
        let rows = try Row.fetchAll(context.db, sql: """
            SELECT \(recordColumns) FROM \(CheckSQL.identifier(table)) WHERE _entity IN \(CheckSQL.list(context.family(of: entity)))
            ORDER BY _gid
            """)
        guard rows.count > 1 else { return }
        let records = rows.map(record(from:))
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
        var columns: [String] = []
        for name in key {
            guard let column = context.column(name, of: entity), column.kind == .attribute else { return }
            columns.append(CheckSQL.identifier(column.column))
        }
        guard !columns.isEmpty else { return }
        let keyList = columns.enumerated().map { "\($0.element) AS k\($0.offset)" }.joined(separator: ", ")
        var filters = ["_entity IN \(CheckSQL.list(context.family(of: entity)))"]
        if seedsOnly { filters.append("_seed_set IS NOT NULL") } else { filters += columns.map { "\($0) IS NOT NULL" } }
        let sql = """
            SELECT * FROM (
                SELECT \(recordColumns), \(keyList), COUNT(*) OVER (PARTITION BY \(columns.joined(separator: ", "))) AS n
                FROM \(CheckSQL.identifier(table)) WHERE \(filters.joined(separator: " AND ")))
            WHERE n > 1 ORDER BY \(columns.indices.map { "k\($0)" }.joined(separator: ", ")), _gid
            """
        var groups: [(values: [DatabaseValue], records: [FindingRecord])] = []
        for row in try Row.fetchAll(context.db, sql: sql) {
            let values: [DatabaseValue] = columns.indices.map { row.storedValue("k\($0)") }
            if groups.last?.values != values { groups.append((values, [])) }
            groups[groups.count - 1].records.append(record(from: row))
        }
        for group in groups {
            let shown = zip(key, group.values).map { "\($0.0)=\(CheckSQL.describe($0.1))" }.joined(separator: ", ")
            context.add(code, entity: entity) {
                var finding = CheckFinding(
                    code: code, entity: entity, globalIDs: group.records.map(\.globalID),
                    message: seedsOnly ? "\(group.records.count) \(entity) seed records share \(shown)"
                        : "\(group.records.count) \(entity) records share \(shown), which the uniqueness constraint (\(key.joined(separator: ", "))) forbids",
                    hint: seedsOnly ? "run `storekeep repair`: it keeps the newest seed version (ties by global ID), moves relationships to it and never deletes a seed record the user modified"
                        : "merge or change the duplicates in the app; `storekeep repair` reports them")
                finding.table = table
                finding.keyAttributes = key
                finding.keyValues = group.values.map(CheckSQL.describe)
                finding.records = group.records
                return finding
            }
        }
    }
}
