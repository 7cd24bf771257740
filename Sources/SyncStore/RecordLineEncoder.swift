import GRDB
import ObjectModel

/// Writes the canonical `R` line of one record (see `docs/format.md#the-content-digest`), from a
/// stored row or from a record about to be imported, so that both sides of a migration compare.
struct RecordLineEncoder: Sendable {
    let entity: String
    let attributes: [AttributeDescription]
    let toOne: [(name: String, column: String)]
    /// Selects the columns the line needs, for rows of exactly one entity (bound to `?`), by global ID.
    let selectSQL: String

    init(layout: StoreLayout, model: ManagedModel, entity: String, table: String) {
        let columns = layout.attributeColumns[entity] ?? [:]
        self.entity = entity
        attributes = model.attributes(of: entity).filter { !$0.isTransient }.sorted { $0.name < $1.name }
        toOne = (layout.relationships[entity] ?? [:]).compactMap { name, storage -> (String, String)? in
            if case .column(_, let column, _) = storage { return (name, column) }
            return nil
        }.sorted { $0.0 < $1.0 }
        let selected = ["_gid", "_seed_set", "_seed_version"] + attributes.map { columns[$0.name]! } + toOne.map(\.column)
        selectSQL = "SELECT \(selected.map(\.quotedDatabaseIdentifier).joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier) WHERE _entity = ? ORDER BY _gid"
    }

    /// The line of a row selected by ``selectSQL``, and how many to-one links it holds.
    func line(fromRow row: Row) -> (String, Int) {
        var line = "R \(SyncStore.field(row[0] as String)) \(SyncStore.field((row[1] as String?) ?? "-")) \((row[2] as Int64?).map(String.init) ?? "-")"
        for (index, attribute) in attributes.enumerated() {
            line += " \(attribute.name)=" + SyncStore.encode(row[3 + index] as DatabaseValue, type: attribute.type)
        }
        var links = 0
        for (index, relationship) in toOne.enumerated() {
            let target = row[3 + attributes.count + index] as String?
            if target != nil { links += 1 }
            line += " \(relationship.name)->" + (target.map(SyncStore.field) ?? "-")
        }
        return (line, links)
    }

    /// The line the record will have once imported.
    func line(for record: ImportRecord) -> String {
        var line = "R \(SyncStore.field(record.globalID.rawValue)) \(SyncStore.field(record.seed?.set ?? "-")) \(record.seed.map { String($0.version) } ?? "-")"
        for attribute in attributes {
            let given = record.values[attribute.name] ?? attribute.defaultValue ?? .null
            let stored = ValueCoder.normalized(given, for: attribute).map(ValueCoder.databaseValue) ?? .null
            line += " \(attribute.name)=" + SyncStore.encode(stored, type: attribute.type)
        }
        for relationship in toOne {
            line += " \(relationship.name)->" + (record.toOne[relationship.name].map { SyncStore.field($0.rawValue) } ?? "-")
        }
        return line
    }
}
