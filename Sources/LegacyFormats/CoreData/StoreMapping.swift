import ObjectModel

/// Where each stored property of each entity lives in the SQLite file, worked out from a model and
/// the schema. Building it is also how a model is checked against a store: every entity must be
/// in `Z_PRIMARYKEY` with the same parent, and every stored property must have its column or table.
struct StoreMapping: Sendable {
    /// One attribute and its column.
    struct AttributeColumn: Sendable {
        var name: String
        var type: AttributeType
        var column: String
        var allowsExternalStorage: Bool
    }

    /// One to-one relationship and its foreign-key column.
    struct ToOneColumn: Sendable {
        var name: String
        var column: String
        /// `Z<n>_<NAME>`, the target's `Z_ENT`, when the destination has sub-entities.
        var entityColumn: String?
        var destination: String
        /// `Z_FOK_<INVERSE>`: this record's position in the inverse, when the inverse is an ordered to-many.
        var orderColumn: String? = nil
    }

    /// Where the members of a to-many relationship are listed.
    enum ToManySource: Sendable {
        /// A many-to-many join table: `ownColumn` holds this side's keys, `targetColumn` the other's.
        case joinTable(table: String, ownColumn: String, targetColumn: String, orderColumn: String?)
        /// An ordered to-many whose inverse is to-one: the children's table, their foreign key to
        /// this side, and their `Z_FOK_` order column.
        case children(table: String, foreignKey: String, orderColumn: String)
    }

    /// One to-many relationship that this side can list.
    struct ToMany: Sendable {
        var name: String
        var destination: String
        /// The destination's root table, to find each target's exact entity.
        var destinationTable: String
        var source: ToManySource
    }

    /// Everything needed to read one entity's records.
    struct EntityMapping: Sendable {
        var name: String
        var number: Int64
        var table: String
        var attributes: [AttributeColumn]
        var toOnes: [ToOneColumn]
        var toManys: [ToMany]
    }

    /// By entity name.
    var entities: [String: EntityMapping]
    /// Join tables used by at least one relationship.
    var joinTables: Set<String>
    /// To-many relationships with a to-one inverse and no order, listed only from the to-one side.
    var derivedOnly: [String]

    /// Maps `model` onto `schema`; throws the list of mismatches when it does not fit.
    static func build(model: ManagedModel, schema: CoreDataSchema) throws(Mismatch) -> StoreMapping {
        var builder = Builder(model: model, schema: schema)
        let mapping = builder.run()
        if !builder.problems.isEmpty { throw Mismatch(problems: builder.problems) }
        return mapping
    }

    /// "entity Book is in the store but not in the model" (or the other way round): the mismatch of
    /// an entity that only one of the two has.
    static func entityOnly(_ entity: String, inStore: Bool) -> String {
        inStore ? "entity \(entity) is in the store but not in the model" : "entity \(entity) is in the model but not in the store"
    }

    /// Why a model does not fit a store: one line per problem.
    struct Mismatch: Error {
        var problems: [String]
        /// The first few problems in one sentence.
        var summary: String {
            let shown = problems.prefix(4).joined(separator: "; ")
            return problems.count > 4 ? "\(shown); and \(problems.count - 4) more" : shown
        }
    }
}

/// Builds a ``StoreMapping``, collecting problems instead of stopping at the first one.
private struct Builder {
    let model: ManagedModel
    let schema: CoreDataSchema
    var problems: [String] = []
    var joinTables: Set<String> = []
    var derivedOnly: [String] = []

    init(model: ManagedModel, schema: CoreDataSchema) {
        self.model = model
        self.schema = schema
    }

    mutating func run() -> StoreMapping {
        for row in schema.entityRows {
            guard let entity = model.entity(named: row.name) else {
                problems.append(StoreMapping.entityOnly(row.name, inStore: true))
                continue
            }
            let storedParent = schema.entityRow(row.superNumber)?.name
            if entity.parentName != storedParent {
                problems.append("entity \(row.name) has parent \(storedParent ?? "none") in the store but \(entity.parentName ?? "none") in the model")
            }
        }
        for entity in model.entities where schema.entityRow(named: entity.name) == nil {
            problems.append(StoreMapping.entityOnly(entity.name, inStore: false))
        }
        var entities: [String: StoreMapping.EntityMapping] = [:]
        for row in schema.entityRows where model.entity(named: row.name) != nil {
            entities[row.name] = mapEntity(row)
        }
        return StoreMapping(entities: entities, joinTables: joinTables, derivedOnly: derivedOnly)
    }

    private func number(of entity: String) -> Int64? { schema.entityRow(named: entity)?.number }

    private func declaringEntity(of property: String, from entity: String) -> String {
        model.inheritanceChain(of: entity).last { entity in
            entity.attribute(named: property) != nil || entity.relationship(named: property) != nil
        }?.name ?? entity
    }

    /// `Z<NAME>`, or `Z<NAME><k>` when several entities sharing the table declare the same name
    /// (the k-th declaring entity by `Z_ENT` order; k starts at 1 for the second one).
    private func column(for property: String, declaredBy owner: String, in table: String) -> String? {
        let base = "Z" + property.uppercased()
        let owners = schema.entityRows.filter { row in
            schema.table(ofEntity: row.number) == table
                && model.entity(named: row.name).map { $0.attribute(named: property) != nil || $0.relationship(named: property) != nil } == true
        }.map(\.name)
        let position = owners.firstIndex(of: owner) ?? 0
        let candidate = position == 0 ? base : base + String(position)
        if schema.has(table, column: candidate) { return candidate }
        return schema.has(table, column: base) ? base : nil
    }

    private mutating func mapEntity(_ row: CoreDataSchema.EntityRow) -> StoreMapping.EntityMapping {
        let table = schema.table(ofEntity: row.number)
        var attributes: [StoreMapping.AttributeColumn] = []
        for attribute in model.attributes(of: row.name) where !attribute.isTransient && !attribute.isDerived {
            if attribute.type == .undefined || attribute.type == .composite { continue }
            let owner = declaringEntity(of: attribute.name, from: row.name)
            guard let column = column(for: attribute.name, declaredBy: owner, in: table) else {
                problems.append("attribute \(row.name).\(attribute.name) has no column Z\(attribute.name.uppercased()) in \(table)")
                continue
            }
            attributes.append(.init(
                name: attribute.name, type: attribute.type, column: column,
                allowsExternalStorage: attribute.allowsExternalBinaryDataStorage))
        }
        var toOnes: [StoreMapping.ToOneColumn] = []
        var toManys: [StoreMapping.ToMany] = []
        for relationship in model.relationships(of: row.name) where !relationship.isTransient {
            guard let destinationNumber = number(of: relationship.destination) else {
                problems.append("relationship \(row.name).\(relationship.name) points at \(relationship.destination), which the store does not have")
                continue
            }
            let owner = declaringEntity(of: relationship.name, from: row.name)
            if !relationship.isToMany {
                guard let column = column(for: relationship.name, declaredBy: owner, in: table) else {
                    problems.append("to-one \(row.name).\(relationship.name) has no column Z\(relationship.name.uppercased()) in \(table)")
                    continue
                }
                let entityColumn = "Z\(destinationNumber)_\(relationship.name.uppercased())"
                let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
                let orderColumn = inverse.flatMap { $0.isToMany && $0.isOrdered ? "Z_FOK_" + relationship.name.uppercased() : nil }
                toOnes.append(.init(
                    name: relationship.name, column: column,
                    entityColumn: schema.has(table, column: entityColumn) ? entityColumn : nil,
                    destination: relationship.destination,
                    orderColumn: orderColumn.flatMap { schema.has(table, column: $0) ? $0 : nil }))
                continue
            }
            let destinationTable = schema.table(ofEntity: destinationNumber)
            let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
            if let inverse, !inverse.isToMany {
                guard relationship.isOrdered else {
                    derivedOnly.append("\(row.name).\(relationship.name)")
                    continue
                }
                let inverseOwner = declaringEntity(of: inverse.name, from: relationship.destination)
                let order = "Z_FOK_" + inverse.name.uppercased()
                guard let foreignKey = column(for: inverse.name, declaredBy: inverseOwner, in: destinationTable),
                    schema.has(destinationTable, column: order)
                else {
                    problems.append("ordered \(row.name).\(relationship.name) has no \(order) column in \(destinationTable)")
                    continue
                }
                toManys.append(.init(
                    name: relationship.name, destination: relationship.destination, destinationTable: destinationTable,
                    source: .children(table: destinationTable, foreignKey: foreignKey, orderColumn: order)))
                continue
            }
            guard let source = joinTable(for: relationship, inverse: inverse, entity: row.name, owner: owner) else {
                problems.append("many-to-many \(row.name).\(relationship.name) has no join table")
                continue
            }
            toManys.append(.init(
                name: relationship.name, destination: relationship.destination, destinationTable: destinationTable,
                source: source))
        }
        return .init(name: row.name, number: row.number, table: table, attributes: attributes, toOnes: toOnes, toManys: toManys)
    }

    /// Finds `Z_<a><NAME>` or `Z_<b><INVERSE>`, trying the declaring entity, the entity itself and
    /// their ancestors for `a`, and the same on the destination side for `b`.
    private mutating func joinTable(
        for relationship: RelationshipDescription, inverse: RelationshipDescription?, entity: String, owner: String
    ) -> StoreMapping.ToManySource? {
        let name = relationship.name.uppercased()
        let inverseName = (inverse?.name ?? relationship.name).uppercased()
        let ownNumbers = candidateNumbers([owner, entity])
        let inverseOwner = inverse.map { declaringEntity(of: $0.name, from: relationship.destination) } ?? relationship.destination
        let otherNumbers = candidateNumbers([inverseOwner, relationship.destination])
        for a in ownNumbers {
            for b in otherNumbers {
                for table in ["Z_\(a)\(name)", "Z_\(b)\(inverseName)"] where schema.columns[table] != nil {
                    let reflexive = a == b && name == inverseName
                    guard let ownColumn = schema.column("Z_\(a)\(inverseName)", in: table),
                        let targetColumn = reflexive ? schema.column("REFLEXIVE", in: table) : schema.column("Z_\(b)\(name)", in: table),
                        ownColumn != targetColumn
                    else { continue }
                    let order = "Z_FOK_\(b)\(name)"
                    joinTables.insert(table)
                    return .joinTable(
                        table: table, ownColumn: ownColumn, targetColumn: targetColumn,
                        orderColumn: schema.has(table, column: order) ? order : nil)
                }
            }
        }
        return nil
    }

    private func candidateNumbers(_ names: [String]) -> [Int64] {
        var numbers: [Int64] = []
        for name in names {
            for ancestor in model.inheritanceChain(of: name).reversed() {
                if let number = number(of: ancestor.name), !numbers.contains(number) { numbers.append(number) }
            }
        }
        return numbers
    }
}
