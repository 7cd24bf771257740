import GRDB
import ObjectModel

/// What writing and digesting records of one entity needs, worked out once when the store opens.
/// A class: the import path looks a plan up several times per record, and copying a struct of this
/// many references cost about 3% of a migration's CPU in retains and releases.
final class EntityPlan: Sendable {
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
    /// The insert statement binding every column (absent values NULL): the fixed columns
    /// `_gid`, `_entity`, `_created`, `_seed_set`, `_seed_version`, `_insert_run`, then each of
    /// ``columns``, then each of ``toOne`` with its order column when it has one.
    let insertSQL: String
    /// Whether an attribute may keep its values in blob files.
    let hasExternalStorage: Bool
    /// The canonical-line encoder of the content digest.
    let lineEncoder: RecordLineEncoder
    /// The names a history insert change can list, one bit each in ``propertyMask(of:attributesAndToOnes:)``: the
    /// attributes, then the to-one relationships, then the to-many relationships in join tables.
    let propertyNames: [String]
    /// The bit of each of ``columns`` and of each of ``toOne`` in ``propertyMask(of:attributesAndToOnes:)``, so that a
    /// writer walking them builds the mask as it goes (all 0 beyond 64 properties).
    let columnBits: [UInt64]
    let toOneBits: [UInt64]
    private let attributeNames: [String]
    /// Whether every attribute name is ASCII (``NameSearch``).
    private let attributeNamesAreASCII: Bool
    private let joinedToManyNames: [String]

    init?(store layout: StoreLayout, model: ManagedModel, entity: String) {
        guard let description = model.entity(named: entity), let table = layout.tableOfEntity[entity] else { return nil }
        // Every stored attribute has its column (the layout is made from the same model); an
        // inconsistent model gives no plan rather than a trap.
        let attributeColumns = model.attributes(of: entity).filter { !$0.isTransient }.compactMap { layout.attributeColumns[entity]?[$0.name] }
        guard attributeColumns.count == model.attributes(of: entity).filter({ !$0.isTransient }).count,
              let lineEncoder = RecordLineEncoder(layout: layout, model: model, entity: entity, table: table) else { return nil }
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
        var columns = ["_gid", "_entity", "_created", "_seed_set", "_seed_version", "_insert_run"]
        columns += attributeColumns
        for relationship in toOne {
            columns.append(relationship.column)
            if let order = relationship.order { columns.append(order) }
        }
        insertSQL = "INSERT INTO \(table.quotedSQLIdentifier) (\(columns.map(\.quotedSQLIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        hasExternalStorage = attributes.contains { $0.allowsExternalBinaryDataStorage }
        self.lineEncoder = lineEncoder
        attributeNames = typeByName.keys.sorted()
        attributeNamesAreASCII = self.columns.allSatisfy(\.nameIsASCII)
        joinedToManyNames = joinedToMany.sorted()
        propertyNames = attributeNames + toOne.map(\.name) + joinedToManyNames
        let names = propertyNames
        let firstToOneBit = attributeNames.count
        let fits = names.count <= 64
        columnBits = self.columns.map { column in
            guard fits, let index = names.firstIndex(of: column.name) else { return 0 }
            return 1 << UInt64(index)
        }
        toOneBits = (0..<toOne.count).map { fits ? 1 << UInt64(firstToOneBit + $0) : 0 }
    }

    /// The position in ``columns`` of the attribute `name`, searched from `start` round to it: a
    /// record's values usually come in column order, so a caller walking them passes the position
    /// after the last one found and finds the next name at once, without hashing it.
    func columnIndex(named name: String, from start: Int) -> Int? {
        NameSearch.position(of: name, count: columns.count, from: start, namesAreASCII: attributeNamesAreASCII) { columns[$0].name }
    }

    /// The properties `record` sets, as bits of ``propertyNames``, from the bits of its attributes
    /// and to-one relationships that a writer gathered (``columnBits``, ``toOneBits``) as it looked
    /// each value up, plus those of its to-many relationships: one lookup per name instead of a set
    /// of names per record. `nil` when the entity has more than 64 properties or the record sets a
    /// name that is not the entity's.
    func propertyMask(of record: ImportRecord, attributesAndToOnes gathered: UInt64) -> UInt64? {
        guard propertyNames.count <= 64 else { return nil }
        var mask = gathered
        var bit: UInt64 = 1 << UInt64(attributeNames.count + toOne.count)
        if record.toMany.isEmpty { return mask.nonzeroBitCount == record.values.count + record.toOne.count ? mask : nil }
        for name in joinedToManyNames {
            if record.toMany[name] != nil { mask |= bit }
            bit <<= 1
        }
        guard mask.nonzeroBitCount == record.values.count + record.toOne.count + record.toMany.count else { return nil }
        return mask
    }

    /// The history `properties` JSON of an insert setting the properties of `mask`
    /// (``propertyMask(of:attributesAndToOnes:)``), with the attributes that have a default value.
    func propertiesJSON(mask: UInt64) -> String {
        var names = Set(defaultedAttributes)
        for (index, name) in propertyNames.enumerated() where mask & (1 << UInt64(index)) != 0 { names.insert(name) }
        return HistoryPropertiesCache.json(names)
    }
}
