import ObjectModel

/// What a SQL copy of records of one entity (``BulkLoad/importCopiedBatch(_:checkpoint:)``)
/// must select, column by column, and in which form.
///
/// The columns, in this order:
/// 1. the global ID (text), the seed set (text or NULL) and the seed version (integer or NULL);
/// 2. one per attribute of ``attributes``, in that order (sorted by name);
/// 3. one per to-one relationship of ``toOnes``, in that order (sorted by name): the target's
///    global ID, or NULL when the relationship is empty;
/// 4. one per to-one relationship of ``toOnes`` with ``ToOne/hasOrder``: this record's position in
///    the inverse ordered to-many, or NULL.
///
/// Each value in the form the store keeps it (`docs/format.md`): integers and Booleans (0 or 1) as
/// INTEGER, doubles and dates (seconds since 1970) as REAL, decimals, strings, URIs and UUIDs
/// (uppercase) as TEXT, binary values inline as BLOB (a copy never writes blob files: values
/// over ``SyncStore/externalStorageThreshold`` bytes of attributes that allow external storage
/// must go through ``BulkLoad/importBatch(_:rejections:checkpoint:checked:blobFiles:)``).
/// Every attribute counts as given (an empty one as given empty, so no default applies), as the
/// records of a Core Data store are read.
public struct BulkCopyLayout: Sendable {
    /// One attribute.
    public struct Attribute: Sendable {
        /// Its name.
        public var name: String
        /// Its type.
        public var type: AttributeType
        /// Whether it may keep large values in blob files.
        public var allowsExternalStorage: Bool
    }

    /// One to-one relationship kept in a column.
    public struct ToOne: Sendable {
        /// Its name.
        public var name: String
        /// Whether its inverse is an ordered to-many, so the copy also selects this record's position.
        public var hasOrder: Bool
    }

    /// The exact entity.
    public var entity: String
    /// Its persistent attributes, sorted by name.
    public var attributes: [Attribute]
    /// Its to-one relationships kept in columns, sorted by name.
    public var toOnes: [ToOne]
    /// Its to-many relationships kept in join tables, which a copy does not write.
    public var joinedToManyNames: [String]

    /// How many columns the copy selects.
    public var columnCount: Int { 3 + attributes.count + toOnes.count + toOnes.filter(\.hasOrder).count }

    /// The most to-one relationships an entity may have for a SQL copy: a copied record's insert
    /// run is the batch's first run id plus one bit per non-empty to-one.
    public static let maximumToOnes = 12

    /// What a SQL copy of `entity`'s records into `store` must select, or `nil` when its records
    /// cannot be copied: an unknown or abstract entity, or one with more than ``maximumToOnes``
    /// to-one relationships.
    ///
    /// ```swift
    /// guard let layout = BulkCopyLayout(of: "Item", in: store) else { /* write records one by one */ }
    /// ```
    public init?(of entity: String, in store: SyncStore) {
        guard let plan = store.plans[entity], !plan.isAbstract, plan.toOne.count <= Self.maximumToOnes else { return nil }
        let encoder = plan.lineEncoder
        self.entity = entity
        attributes = encoder.attributeFacts.map { .init(name: $0.name, type: $0.type, allowsExternalStorage: $0.allowsExternalStorage) }
        toOnes = plan.toOne.map { .init(name: $0.name, hasOrder: $0.order != nil) }
        joinedToManyNames = plan.joinedToMany.sorted()
    }
}
