import ObjectModel

/// Where each carried property of one entity goes in its insert statement (``EntityPlan/insertSQL``),
/// so that an insert's encoded payload binds without building a record first.
final class EncodedInsertPlan {
    /// What one property number of the payload binds to.
    enum Slot {
        /// Attribute `column` (a position in ``EntityPlan/columns``) at `parameter`.
        case attribute(column: Int, parameter: Int32, bit: UInt64)
        /// A to-one relationship at `parameter`, its order at `orderParameter`.
        case toOne(parameter: Int32, orderParameter: Int32?, bit: UInt64)
        /// A to-many relationship kept in a join table: written after the row.
        case toMany(name: String, bit: UInt64)
    }

    /// By property number (``SyncEntitySchema``).
    let slots: [Slot?]
    /// Whether the entity's properties fit the 64 history bits (otherwise records go the general way).
    let fits: Bool

    init(plan: EntityPlan, schema: SyncEntitySchema) {
        fits = plan.propertyNames.count <= 64
        let bitOf: [String: UInt64] = Dictionary(plan.propertyNames.enumerated().map { ($0.element, 1 << UInt64($0.offset)) },
                                                 uniquingKeysWith: { first, _ in first })
        var toOneParameters: [String: (Int32, Int32?)] = [:]
        var next = Int32(7 + plan.columns.count)
        for relationship in plan.toOne {
            let order: Int32? = relationship.order == nil ? nil : next + 1
            toOneParameters[relationship.name] = (next, order)
            next += relationship.order == nil ? 1 : 2
        }
        let columnOf = Dictionary(plan.columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        slots = schema.properties.map { property in
            let bit = bitOf[property.name] ?? 0
            switch property.storage {
            case .attribute:
                guard let column = columnOf[property.name] else { return nil }
                return .attribute(column: column, parameter: Int32(7 + column), bit: bit)
            case .toOne:
                guard let (parameter, order) = toOneParameters[property.name] else { return nil }
                return .toOne(parameter: parameter, orderParameter: order, bit: bit)
            case .toMany:
                return .toMany(name: property.name, bit: bit)
            }
        }
    }
}
