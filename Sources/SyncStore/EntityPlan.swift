import GRDB
import ObjectModel

/// What writing and digesting records of one entity needs, worked out once when the store opens.
struct EntityPlan: Sendable {
    /// The exact entity.
    let entity: String
    /// Whether it is abstract (no records of its own).
    let isAbstract: Bool
    /// Its persistent attributes (inherited included), in model order, by name too.
    let attributes: [AttributeDescription]
    let attributeByName: [String: AttributeDescription]
    /// The names of the attributes with a default value (history lists them for every insert).
    let defaultedAttributes: [String]
    /// What writing each attribute of ``attributes`` needs, in the same order, without copying
    /// whole descriptions per record: name, type, default, whether it may go to a blob file.
    let columns: [EntityPlanColumn]
    /// Attribute type by name, for checking a record's values.
    let typeByName: [String: AttributeType]
    /// Its to-one relationships kept in columns: name, column, order column.
    let toOne: [(name: String, column: String, order: String?)]
    /// The names of its to-many relationships kept in join tables.
    let joinedToMany: Set<String>
    /// The insert statement binding every column (absent values NULL).
    let insertSQL: String
    /// The canonical-line encoder of the content digest.
    let lineEncoder: RecordLineEncoder
    /// The history `properties` of an insert that sets every stored property (attributes, to-one
    /// relationships, to-many relationships in join tables): the common case of a migration,
    /// answered without building a set of names per record.
    let everyPropertyJSON: String

    init?(store layout: StoreLayout, model: ManagedModel, entity: String) {
        guard let description = model.entity(named: entity), let table = layout.tableOfEntity[entity] else { return nil }
        self.entity = entity
        isAbstract = description.isAbstract
        attributes = model.attributes(of: entity).filter { !$0.isTransient }
        attributeByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        defaultedAttributes = attributes.filter { $0.defaultValue != nil }.map(\.name)
        columns = attributes.map(EntityPlanColumn.init)
        typeByName = attributeByName.mapValues(\.type)
        toOne = (layout.relationships[entity] ?? [:]).compactMap { name, storage -> (String, String, String?)? in
            if case .column(_, let column, let order) = storage { return (name, column, order) }
            return nil
        }.sorted { $0.0 < $1.0 }
        joinedToMany = Set((layout.relationships[entity] ?? [:]).compactMap { name, storage in
            if case .join = storage { return name }
            return nil
        })
        var columns = ["_gid", "_entity", "_created", "_seed_set", "_seed_version"]
        columns += attributes.map { layout.attributeColumns[entity]![$0.name]! }
        for relationship in toOne {
            columns.append(relationship.column)
            if let order = relationship.order { columns.append(order) }
        }
        insertSQL = "INSERT INTO \(table.quotedDatabaseIdentifier) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        lineEncoder = RecordLineEncoder(layout: layout, model: model, entity: entity, table: table)
        everyPropertyJSON = HistoryPropertiesCache.json(Set(typeByName.keys).union(toOne.map(\.name)).union(joinedToMany))
    }

    /// Whether `record` sets every stored property of the entity. Only for a record that passed
    /// ``SyncStore/problem(with:)`` (every name it sets is one of the entity's): then equal counts
    /// mean equal sets of names.
    func setsEveryProperty(_ record: ImportRecord) -> Bool {
        record.values.count == typeByName.count && record.toOne.count == toOne.count && record.toMany.count == joinedToMany.count
    }
}
