import ObjectModel

/// How one model version maps onto SQLite tables and columns (documented in `docs/format.md`).
///
/// The mapping is a pure function of the model, so every peer with the same model lays its store
/// out the same way; it is also written to the `sk_column` table so that readers need not recompute it.
struct StoreLayout: Sendable {
    /// The table of each entity (the table of its root entity).
    private(set) var tableOfEntity: [String: String] = [:]
    /// The column of each persistent attribute, by entity (inherited attributes included).
    private(set) var attributeColumns: [String: [String: String]] = [:]
    /// The storage of each persistent relationship, by entity (inherited relationships included).
    private(set) var relationships: [String: [String: RelationshipStorage]] = [:]
    /// The columns each entity table has beyond the fixed ones, with their SQL types, in order.
    private(set) var tableColumns: [String: [(name: String, type: String)]] = [:]
    /// The join tables and their order columns.
    private(set) var joinTables: [String] = []
    /// The entity tables that hold records of more than one concrete entity: only they get an
    /// index on `_entity` (in a table of one concrete entity every row has the same `_entity`).
    private(set) var sharedTables: Set<String> = []
    /// Every entity table, sorted by name.
    private(set) var entityTables: [String] = []
    /// What each extra column of each entity table stands for ("attribute Book.title"), by table
    /// and column: for messages about names SQLite cannot tell apart (``nameCollisions()``).
    private(set) var columnOrigins: [String: [(column: String, origin: String)]] = [:]
    /// The relationships that chose each join table, by table ("Book.tags"): two for a
    /// many-to-many pair, which shares one table; two unrelated ones are a collision.
    private(set) var joinTableOwners: [String: Set<String>] = [:]

    /// What every entity table's name starts with (the root entity's name follows).
    static let entityTablePrefix = "e_"

    /// Derives the layout of `model`: of the user's store (the entities of no seed configuration),
    /// or, given `seedConfiguration`, of that configuration's seed store. A model without seed
    /// configurations lays every entity out in the user's store.
    init(model: ManagedModel, seedConfiguration: String? = nil) {
        let held = model.seedConfigurations.isEmpty ? nil : Set(model.entities.filter { model.seedConfiguration(of: $0.name) == seedConfiguration }.map(\.name))
        for root in model.rootEntities where held?.contains(root.name) ?? true {
            let table = Self.entityTablePrefix + root.name
            let family = ([root] + model.descendants(of: root.name)).sorted { $0.name < $1.name }
            var taken = Set<String>()
            var declared: [String: String] = [:]  // "Entity.property" → column
            tableColumns[table] = []
            func claim(_ base: String, declaredBy entity: String, type: String, for origin: String) -> String {
                var column = base
                if taken.contains(column) { column = "\(base)__\(entity)" }
                taken.insert(column)
                tableColumns[table, default: []].append((column, type))
                columnOrigins[table, default: []].append((column, origin))
                return column
            }
            if family.filter({ !$0.isAbstract }).count > 1 { sharedTables.insert(table) }
            for entity in family {
                tableOfEntity[entity.name] = table
                for attribute in entity.attributes where !attribute.isTransient {
                    declared["\(entity.name).\(attribute.name)"] = claim(
                        "a_\(attribute.name)", declaredBy: entity.name, type: Self.sqlType(of: attribute.type),
                        for: "attribute \(entity.name).\(attribute.name)")
                }
                for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                    let column = claim("r_\(relationship.name)", declaredBy: entity.name, type: "TEXT",
                                       for: "relationship \(entity.name).\(relationship.name)")
                    declared["\(entity.name).\(relationship.name)"] = column
                    if let inverse = Self.inverse(of: relationship, in: model), inverse.isToMany, inverse.isOrdered {
                        declared["\(entity.name).\(relationship.name)#order"] = claim(
                            "o_\(relationship.name)", declaredBy: entity.name, type: "INTEGER",
                            for: "the order of relationship \(entity.name).\(relationship.name)")
                    }
                }
            }
            for entity in family {
                for chainEntity in model.inheritanceChain(of: entity.name) {
                    for attribute in chainEntity.attributes where !attribute.isTransient {
                        attributeColumns[entity.name, default: [:]][attribute.name] = declared["\(chainEntity.name).\(attribute.name)"]
                    }
                    for relationship in chainEntity.relationships where !relationship.isTransient && !relationship.isToMany {
                        // A chain that leaves the family (a model validation refuses) has no column here.
                        guard let column = declared["\(chainEntity.name).\(relationship.name)"] else { continue }
                        relationships[entity.name, default: [:]][relationship.name] = .column(
                            table: table, column: column, orderColumn: declared["\(chainEntity.name).\(relationship.name)#order"])
                    }
                }
            }
        }
        entityTables = Set(tableOfEntity.values).sorted()
        for entity in model.entities where held?.contains(entity.name) ?? true {
            for chainEntity in model.inheritanceChain(of: entity.name) {
                for relationship in chainEntity.relationships where !relationship.isTransient && relationship.isToMany {
                    relationships[entity.name, default: [:]][relationship.name] = toManyStorage(
                        relationship, declaredBy: chainEntity.name, model: model)
                }
            }
        }
    }

    /// The inverse of `relationship`, when the model declares one.
    static func inverse(of relationship: RelationshipDescription, in model: ManagedModel) -> RelationshipDescription? {
        guard let name = relationship.inverseName else { return nil }
        return model.relationship(name, of: relationship.inverseEntity ?? relationship.destination)
    }

    private mutating func toManyStorage(
        _ relationship: RelationshipDescription, declaredBy entity: String, model: ManagedModel
    ) -> RelationshipStorage {
        let inverse = Self.inverse(of: relationship, in: model)
        if let inverse, !inverse.isToMany, !inverse.isTransient,
           case .column(let table, let column, let order)? = relationships[relationship.destination]?[inverse.name] {
            return .inverseColumn(table: table, column: column, orderColumn: relationship.isOrdered ? order : nil)
        }
        let mine = "\(entity).\(relationship.name)"
        if let inverse, inverse.isToMany, !inverse.isTransient {
            let inverseDeclarer = model.inheritanceChain(of: relationship.destination)
                .first { $0.relationship(named: inverse.name) != nil }?.name ?? relationship.destination
            let theirs = "\(inverseDeclarer).\(inverse.name)"
            let owner = min(mine, theirs)
            let table = "j_" + owner.replacingOccurrences(of: ".", with: "_")
            if !joinTables.contains(table) { joinTables.append(table) }
            joinTableOwners[table, default: []].insert(owner)
            if owner == mine {
                return .join(table: table, sourceColumn: "owner", targetColumn: "target",
                             sourceOrderColumn: relationship.isOrdered ? "owner_order" : nil,
                             targetOrderColumn: inverse.isOrdered ? "target_order" : nil)
            }
            return .join(table: table, sourceColumn: "target", targetColumn: "owner",
                         sourceOrderColumn: relationship.isOrdered ? "target_order" : nil,
                         targetOrderColumn: inverse.isOrdered ? "owner_order" : nil)
        }
        let table = "j_" + mine.replacingOccurrences(of: ".", with: "_")
        if !joinTables.contains(table) { joinTables.append(table) }
        joinTableOwners[table, default: []].insert(mine)
        return .join(table: table, sourceColumn: "owner", targetColumn: "target",
                     sourceOrderColumn: relationship.isOrdered ? "owner_order" : nil, targetOrderColumn: nil)
    }

    /// The SQLite column type used for an attribute type.
    static func sqlType(of type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .decimal, .string, .uuid, .uri, .objectID, .composite, .undefined: return "TEXT"
        case .binary, .transformable: return "BLOB"
        }
    }
}
