import ObjectModel

/// The properties of one exact entity that sync carries, each with a number: the change encoding
/// names a property by its position here, so both peers must hold the same model (they do: peers
/// sync only when their model version hashes are equal).
///
/// The properties are the persistent attributes, the to-one relationships and the to-many
/// relationships kept in join tables, inherited ones included, sorted by name. A to-many
/// relationship whose inverse is to-one is not carried: its members are the inverse's values.
final class SyncEntitySchema: Sendable {
    /// How one property is kept in the store.
    enum Storage: Sendable {
        /// An attribute in `column` of the entity's table.
        case attribute(column: String, type: AttributeType, external: Bool)
        /// A to-one relationship in `column` (its position in the inverse ordered list in `orderColumn`).
        case toOne(column: String, orderColumn: String?)
        /// A to-many relationship kept in the join `table`, this record on the `sourceColumn` side.
        case toMany(table: String, sourceColumn: String, targetColumn: String, sourceOrderColumn: String?, targetOrderColumn: String?)
    }

    /// One carried property.
    struct Property: Sendable {
        let name: String
        let storage: Storage

        /// Whether it is a to-many relationship (whose clocks are kept per member).
        var isMembership: Bool {
            if case .toMany = storage { return true }
            return false
        }
    }

    /// The exact entity.
    let entity: String
    /// The entity's table.
    let table: String
    /// The carried properties, sorted by name; a property's number is its position.
    let properties: [Property]
    private let positions: [String: Int]

    init?(entity: String, layout: StoreLayout, model: ManagedModel) {
        guard let table = layout.tableOfEntity[entity] else { return nil }
        self.entity = entity
        self.table = table
        var found: [Property] = []
        for attribute in model.attributes(of: entity) where !attribute.isTransient {
            guard let column = layout.attributeColumns[entity]?[attribute.name] else { continue }
            found.append(Property(name: attribute.name, storage: .attribute(
                column: column, type: attribute.type, external: attribute.allowsExternalBinaryDataStorage)))
        }
        for (name, storage) in layout.relationships[entity] ?? [:] {
            switch storage {
            case .column(_, let column, let order):
                found.append(Property(name: name, storage: .toOne(column: column, orderColumn: order)))
            case .join(let joinTable, let source, let target, let sourceOrder, let targetOrder):
                found.append(Property(name: name, storage: .toMany(
                    table: joinTable, sourceColumn: source, targetColumn: target,
                    sourceOrderColumn: sourceOrder, targetOrderColumn: targetOrder)))
            case .inverseColumn:
                continue
            }
        }
        properties = found.sorted { $0.name < $1.name }
        positions = Dictionary(properties.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The properties an insert's payload names: every attribute and to-one relationship, and the
    /// to-many relationships among `touchedToMany`, in property order.
    func insertedPropertyNames(touchedToMany: Set<String>) -> [String] {
        properties.compactMap { property in
            property.isMembership && !touchedToMany.contains(property.name) ? nil : property.name
        }
    }

    /// The number of property `name`, when sync carries it.
    func position(of name: String) -> Int? { positions[name] }

    /// The property numbered `position`, when there is one.
    func property(at position: Int) -> Property? {
        properties.indices.contains(position) ? properties[position] : nil
    }
}
