import ObjectModel

/// Where one entity's records live in a Core Data store: its table and entity number, and the
/// column of each stored attribute and to-one relationship. For callers that read the rows with
/// SQL of their own (``CoreDataStoreReader/forEachRow(sql:arguments:_:)``) instead of as
/// ``CoreDataRecord`` values.
///
/// ```swift
/// let storage = try #require(reader.storage(of: "Book"))
/// let sql = "SELECT Z_PK, \(storage.attributes[0].column) FROM \(storage.table) WHERE Z_ENT = \(storage.number)"
/// ```
public struct CoreDataEntityStorage: Sendable {
    /// One attribute and its column.
    public struct Attribute: Sendable {
        /// The attribute's name.
        public var name: String
        /// Its type.
        public var type: AttributeType
        /// Its column in ``CoreDataEntityStorage/table``.
        public var column: String
        /// Whether the model allows external storage (a BLOB may then be a marker and the bytes,
        /// or the name of a file in `_EXTERNAL_DATA`).
        public var allowsExternalStorage: Bool
    }

    /// One to-one relationship and its columns.
    public struct ToOne: Sendable {
        /// The relationship's name.
        public var name: String
        /// The column holding the target's `Z_PK` (NULL or 0 when the relationship is empty).
        public var column: String
        /// The column holding the target's `Z_ENT`, when the destination has sub-entities.
        public var entityColumn: String?
        /// The destination entity.
        public var destination: String
        /// The `Z_FOK_` column holding this record's position in the inverse ordered to-many, when there is one.
        public var orderColumn: String?
    }

    /// The entity.
    public var entity: String
    /// Its `Z_ENT`: the rows of exactly this entity in ``table`` are those with this `Z_ENT`.
    public var number: Int64
    /// The root table its rows live in.
    public var table: String
    /// The SQL condition its rows in ``table`` meet, as ``CoreDataStoreReader/forEachRecord(entity:afterPrimaryKey:batchSize:_:)``
    /// reads them: `Z_ENT = <number>`, and `Z_PK` an integer when the table does not make it one.
    /// Add `Z_PK > <after>` (at least 0) to read them in order.
    public var rowCondition: String
    /// Its stored attributes as ``CoreDataStoreReader/forEachRecord(entity:afterPrimaryKey:batchSize:_:)``
    /// reads them (attributes of undefined or composite type, and derived ones, are not read).
    public var attributes: [Attribute]
    /// Its to-one relationships.
    public var toOnes: [ToOne]
    /// Its to-many relationships kept in join tables (many-to-many, or without an inverse).
    public var joinedToManyNames: [String]
}

extension CoreDataStoreReader {
    /// Where `entity`'s records are stored, or `nil` for an entity the store does not have.
    public func storage(of entity: String) -> CoreDataEntityStorage? {
        guard let mapping = mapping.entities[entity] else { return nil }
        return CoreDataEntityStorage(
            entity: entity, number: mapping.number, table: mapping.table, rowCondition: rowCondition(of: entity),
            attributes: mapping.attributes.map {
                .init(name: $0.name, type: $0.type, column: $0.column, allowsExternalStorage: $0.allowsExternalStorage)
            },
            toOnes: mapping.toOnes.map {
                .init(name: $0.name, column: $0.column, entityColumn: $0.entityColumn, destination: $0.destination, orderColumn: $0.orderColumn)
            },
            joinedToManyNames: mapping.toManys.compactMap {
                if case .joinTable = $0.source { return $0.name }
                return nil
            })
    }

    /// The `Z_ENT` of every entity the store has rows for, by entity name.
    public var entityNumbers: [String: Int64] {
        Dictionary(schema.entityRows.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
    }

    /// `x-coredata://<store UUID>/<entity>/p`: a record's global ID is this followed by its `Z_PK`.
    public func globalIDPrefix(of entity: String) -> String {
        GlobalIDPrefixes.prefix(storeUUID: storeUUID, entity: entity)
    }

    /// The private copy of the store that the reader reads (its `-wal` already part of it): a
    /// caller may open it read-only beside the reader, for example to copy rows with SQL. It is
    /// removed by ``close()``.
    public var snapshotPath: String { snapshot.databasePath }
}
