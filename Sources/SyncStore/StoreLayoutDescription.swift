import ObjectModel

/// How a store lays a model out in SQLite: the table of each entity, where each property lives,
/// the join tables, and the names of storekeep's own tables (`docs/format.md`).
///
/// The store owns this layout; callers that report on tables and columns (`check`'s findings
/// name them) take the names from here instead of building them, so that a new store format can
/// change the layout in one place.
///
/// ```swift
/// let layout = StoreLayoutDescription(model: model)
/// layout.table(of: "Speech")                          // "e_Speech"
/// layout.storage(of: "title", of: "Speech")?.column   // "a_title"
/// StoreLayoutDescription.changeTable                  // "sk_change"
/// ```
public struct StoreLayoutDescription: Hashable, Sendable {
    /// The table of what the store says about itself (key, value).
    public static let metadataTable = "sk_metadata"
    /// The table of the model kept inside the store.
    public static let modelTable = "sk_model"
    /// The table of where each property lives (the rows ``StoredProperty`` describes).
    public static let columnTable = "sk_column"
    /// The table of history transactions.
    public static let transactionTable = "sk_transaction"
    /// The table of history changes.
    public static let changeTable = "sk_change"
    /// The table of the peers a store knows.
    public static let peerTable = "sk_peer"
    /// The table of bulk imports' insert runs (format 3 and later).
    public static let insertRunTable = "sk_insert_run"
    /// The table of migration runs.
    public static let migrationTable = "sk_migration"
    /// The table of the files each migration run applied.
    public static let migrationFileTable = "sk_migration_file"

    /// The table of each entity the store holds (its root entity's table), by entity.
    public let entityTables: [String: String]
    /// The join tables, in the order the model makes them.
    public let joinTables: [String]
    /// Where each persistent property lives, by entity then property (inherited properties
    /// included under each sub-entity).
    public let properties: [String: [String: StoredProperty]]
    /// The table each root entity's family has or would have, held by the store or not, by root entity.
    let rootTables: [String: String]

    /// The layout a store of `model` has: a user's store (`seedConfiguration` `nil`: the entities of
    /// no seed configuration), or the seed store of `seedConfiguration`.
    public init(model: ManagedModel, seedConfiguration: String? = nil) {
        self.init(StoreLayout(model: model, seedConfiguration: seedConfiguration), model: model)
    }

    init(_ layout: StoreLayout, model: ManagedModel) {
        entityTables = layout.tableOfEntity
        joinTables = layout.joinTables
        rootTables = Dictionary(uniqueKeysWithValues: model.rootEntities.map { ($0.name, StoreLayout.entityTablePrefix + $0.name) })
        var properties: [String: [String: StoredProperty]] = [:]
        for entity in model.entities {
            let table = layout.tableOfEntity[entity.name] ?? ""
            for (property, column) in layout.attributeColumns[entity.name] ?? [:] {
                properties[entity.name, default: [:]][property] = StoredProperty(
                    entity: entity.name, property: property, kind: .attribute, table: table, column: column, orderColumn: nil)
            }
            for (property, storage) in layout.relationships[entity.name] ?? [:] {
                let stored: StoredProperty
                switch storage {
                case .column(let table, let column, let order):
                    stored = StoredProperty(entity: entity.name, property: property, kind: .toOne, table: table, column: column, orderColumn: order)
                case .inverseColumn(let table, let column, let order):
                    stored = StoredProperty(entity: entity.name, property: property, kind: .toManyInverse, table: table, column: column, orderColumn: order)
                case .join(let table, let source, _, let order, _):
                    stored = StoredProperty(entity: entity.name, property: property, kind: .join, table: table, column: source, orderColumn: order)
                }
                properties[entity.name, default: [:]][property] = stored
            }
        }
        self.properties = properties
    }

    /// A layout with the tables of `base` and the properties given (the ones a store records and
    /// that agree with its model and tables: ``StoreInspection/reviewSchema(against:_:)``).
    init(tablesOf base: StoreLayoutDescription, properties: [String: [String: StoredProperty]]) {
        entityTables = base.entityTables
        joinTables = base.joinTables
        rootTables = base.rootTables
        self.properties = properties
    }

    /// The table of `entity`'s family, or `nil` when the store does not hold that entity (a seed
    /// entity in a user's store, an entity the model lacks).
    public func table(of entity: String) -> String? { entityTables[entity] }

    /// The table of the family of the root entity `root`, whether or not the store holds that
    /// family (a user's store has no table for a seed configuration's entities: this is the name it
    /// would have); `nil` when the model has no such root entity.
    public func table(ofRootEntity root: String) -> String? { rootTables[root] }

    /// Where `property` of `entity` lives, or `nil` when it is not a stored property of that entity.
    public func storage(of property: String, of entity: String) -> StoredProperty? { properties[entity]?[property] }

    /// The same tables, without any property: what a caller knows of a store whose column map
    /// cannot be read.
    public var tablesOnly: StoreLayoutDescription { StoreLayoutDescription(tablesOf: self, properties: [:]) }

    /// Every stored property, sorted by entity then property.
    public var allProperties: [StoredProperty] {
        properties.keys.sorted().flatMap { entity in (properties[entity] ?? [:]).keys.sorted().compactMap { properties[entity]?[$0] } }
    }
}
