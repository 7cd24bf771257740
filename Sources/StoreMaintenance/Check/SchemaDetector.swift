import GRDB
import ObjectModel

/// Reads `sk_column` and keeps the rows that agree with the model and with the tables; every
/// disagreement is a ``CheckCode/schemaMismatch`` finding, and the property is left out of later checks.
enum SchemaDetector {
    /// The columns every entity table has (format 3 adds `_insert_run`).
    static let fixedColumns: Set<String> = ["_rowid", "_gid", "_entity", "_created", "_updated", "_seed_set", "_seed_version"]

    /// Fills ``CheckContext/columns``.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        for root in model.rootEntities where context.holds(root.name) {
            let table = "e_\(root.name)"
            let present = try context.columns(ofTable: table)
            let missing = fixedColumns.union(context.hasInsertRuns ? ["_insert_run"] : []).subtracting(present ?? [])
            if !missing.isEmpty {
                mismatch(context, entity: root.name, property: nil, table: table,
                         present == nil ? "the table \(table) of entity \(root.name) is missing"
                             : "the table \(table) lacks the columns \(missing.sorted().joined(separator: ", "))")
            }
        }
        guard try context.db.tableExists("sk_column") else {
            mismatch(context, entity: nil, property: nil, table: "sk_column", "the table sk_column is missing")
            return
        }
        var stored: [String: [String: StoredColumn]] = [:]
        for row in try Row.fetchAll(context.db, sql: "SELECT entity, property, kind, table_name, column_name, order_column FROM sk_column") {
            guard let kind = StoredColumn.Kind(rawValue: row.stored("kind", as: String.self) ?? "") else { continue }
            let column = StoredColumn(entity: row.stored("entity", as: String.self) ?? "", property: row.stored("property", as: String.self) ?? "", kind: kind,
                                      table: row.stored("table_name", as: String.self) ?? "", column: row.stored("column_name", as: String.self) ?? "",
                                      orderColumn: row.stored("order_column", as: String.self))
            stored[column.entity, default: [:]][column.property] = column
        }
        for entity in model.entities {
            guard let rootTable = context.table(of: entity.name), try context.tableExists(rootTable) else { continue }
            for attribute in model.attributes(of: entity.name) where !attribute.isTransient {
                try accept(stored[entity.name]?[attribute.name], kinds: [.attribute], entity: entity.name, property: attribute.name, context)
            }
            for relationship in model.relationships(of: entity.name) where !relationship.isTransient {
                try accept(stored[entity.name]?[relationship.name], kinds: relationship.isToMany ? [.toManyInverse, .join] : [.toOne],
                           entity: entity.name, property: relationship.name, context)
            }
        }
    }

    private static func accept(_ column: StoredColumn?, kinds: Set<StoredColumn.Kind>, entity: String, property: String, _ context: CheckContext) throws {
        guard let column else {
            mismatch(context, entity: entity, property: property, table: "sk_column", "sk_column has no row for \(entity).\(property)")
            return
        }
        guard kinds.contains(column.kind) else {
            mismatch(context, entity: entity, property: property, table: "sk_column",
                     "sk_column says \(entity).\(property) is stored as '\(column.kind.rawValue)', which does not fit the model")
            return
        }
        guard let present = try context.columns(ofTable: column.table) else {
            mismatch(context, entity: entity, property: property, table: column.table,
                     "the table \(column.table) that holds \(entity).\(property) is missing")
            return
        }
        let needed = [column.column, column.kind == .join ? column.otherJoinColumn : nil, column.orderColumn].compactMap { $0 }
        if let absent = needed.first(where: { !present.contains($0) }) {
            mismatch(context, entity: entity, property: property, table: column.table,
                     "the table \(column.table) has no column \(absent) for \(entity).\(property)")
            return
        }
        context.columns[entity, default: [:]][property] = column
    }

    private static func mismatch(_ context: CheckContext, entity: String?, property: String?, table: String, _ message: String) {
        context.add(.schemaMismatch, entity: entity, property: property) {
            var finding = CheckFinding(code: .schemaMismatch, entity: entity, message: message + "; what it holds was not checked",
                                       hint: "the store's layout is damaged or was changed by hand; restore it from a backup")
            finding.property = property
            finding.table = table
            return finding
        }
    }
}
