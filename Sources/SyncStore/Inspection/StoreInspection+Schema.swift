import GRDB
import ObjectModel

extension StoreInspection {
    /// Reads the store's column map and tables against the layout `model` gives, and returns the
    /// layout of what agrees: the model's tables, and only the properties the store maps as the
    /// model says, in tables and columns that exist.
    ///
    /// Entity tables must exist with every column an entity table has; each persistent property of
    /// an entity whose table exists must have a row in the column map, of a kind that fits the
    /// model, naming a table and columns that exist.
    ///
    /// ```swift
    /// let layout = try inspection.reviewSchema(against: model) { difference in print(difference.table) }
    /// let title = layout.storage(of: "title", of: "Speech")   // nil when it disagreed
    /// ```
    ///
    /// - Parameter body: called with each disagreement as it is found: entity tables first, then
    ///   the column map property by property in model order.
    public func reviewSchema(against model: ManagedModel, _ body: (StoreSchemaDifference) throws -> Void) throws -> StoreLayoutDescription {
        let expected = try layout(of: model)
        let fixed = Set(StoreLayout.fixedEntityColumns).subtracting(try recordsInsertRuns() ? [] : [StoreLayout.insertRunColumn])
        for root in model.rootEntities {
            guard let table = expected.table(of: root.name) else { continue }
            let present = try columns(ofTable: table)
            let missing = fixed.subtracting(present ?? [])
            guard !missing.isEmpty else { continue }
            try body(present == nil ? .entityTableMissing(entity: root.name, table: table)
                : .entityTableColumnsMissing(entity: root.name, table: table, columns: missing.sorted()))
        }
        let map = StoreLayoutDescription.columnTable
        guard try tableExists(map) else {
            try body(.columnMapMissing(table: map))
            return expected.tablesOnly
        }
        var recorded: [String: [String: StoredProperty]] = [:]
        try reading {
            for row in try Row.fetchAll(db, sql: "SELECT entity, property, kind, table_name, column_name, order_column FROM sk_column") {
                guard let kind = StoredProperty.Kind(rawValue: row.stored("kind", as: String.self) ?? "") else { continue }
                let stored = StoredProperty(
                    entity: row.stored("entity", as: String.self) ?? "", property: row.stored("property", as: String.self) ?? "", kind: kind,
                    table: row.stored("table_name", as: String.self) ?? "", column: row.stored("column_name", as: String.self) ?? "",
                    orderColumn: row.stored("order_column", as: String.self))
                recorded[stored.entity, default: [:]][stored.property] = stored
            }
        }
        var accepted: [String: [String: StoredProperty]] = [:]
        func accept(_ stored: StoredProperty?, kinds: Set<StoredProperty.Kind>, entity: String, property: String) throws {
            guard let stored else { return try body(.propertyNotMapped(entity: entity, property: property, table: map)) }
            guard kinds.contains(stored.kind) else {
                return try body(.propertyKindUnfit(entity: entity, property: property, kind: stored.kind, table: map))
            }
            guard let present = try columns(ofTable: stored.table) else {
                return try body(.propertyTableMissing(entity: entity, property: property, table: stored.table))
            }
            let needed = [stored.column, stored.kind == .join ? stored.otherJoinColumn : nil, stored.orderColumn].compactMap { $0 }
            if let absent = needed.first(where: { !present.contains($0) }) {
                return try body(.propertyColumnMissing(entity: entity, property: property, table: stored.table, column: absent))
            }
            accepted[entity, default: [:]][property] = stored
        }
        for entity in model.entities {
            guard let table = expected.table(of: entity.name), try tableExists(table) else { continue }
            for attribute in model.attributes(of: entity.name) where !attribute.isTransient {
                try accept(recorded[entity.name]?[attribute.name], kinds: [.attribute], entity: entity.name, property: attribute.name)
            }
            for relationship in model.relationships(of: entity.name) where !relationship.isTransient {
                try accept(recorded[entity.name]?[relationship.name], kinds: relationship.isToMany ? [.toManyInverse, .join] : [.toOne],
                           entity: entity.name, property: relationship.name)
            }
        }
        return StoreLayoutDescription(tablesOf: expected, properties: accepted)
    }
}
