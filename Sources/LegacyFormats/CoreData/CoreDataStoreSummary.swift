/// What `storekeep inspect` shows about a Core Data store: its identity, where its model came from,
/// and each entity with its table and record count.
public struct CoreDataStoreSummary: Encodable, Sendable, Equatable {
    /// One entity of the store.
    public struct Entity: Encodable, Sendable, Equatable {
        /// The entity's name.
        public var name: String
        /// The parent entity, if any.
        public var parent: String?
        /// Whether the model marks the entity abstract.
        public var isAbstract: Bool
        /// The table its rows live in (its root entity's table).
        public var table: String
        /// Rows of exactly this entity.
        public var count: Int

        /// Creates an entity line.
        public init(name: String, parent: String?, isAbstract: Bool, table: String, count: Int) {
            self.name = name
            self.parent = parent
            self.isAbstract = isAbstract
            self.table = table
            self.count = count
        }
    }

    /// The store's path as given.
    public var path: String
    /// `Z_METADATA.Z_VERSION`.
    public var storeVersion: Int64
    /// `Z_METADATA.Z_UUID`, the store UUID used in global IDs.
    public var storeUUID: String
    /// `NSPersistenceFrameworkVersion` from the metadata, when present.
    public var frameworkVersion: Int64?
    /// ``ModelSource`` raw value: `given`, `modelCache` or `inferred`.
    public var modelSource: String
    /// A sentence on how the model was obtained, with the reason for a fallback if there was one.
    public var modelSentence: String
    /// The entities, in `Z_PRIMARYKEY` order.
    public var entities: [Entity]
    /// Relationships declared in the model (each side counted once).
    public var relationshipCount: Int
    /// Many-to-many join tables (`Z_<n><NAME>`).
    public var joinTableCount: Int
    /// Facts about what could not be mapped or decoded (empty when everything was).
    public var notes: [String]

    /// Creates a summary.
    public init(
        path: String, storeVersion: Int64, storeUUID: String, frameworkVersion: Int64?, modelSource: String,
        modelSentence: String, entities: [Entity], relationshipCount: Int, joinTableCount: Int, notes: [String]
    ) {
        self.path = path
        self.storeVersion = storeVersion
        self.storeUUID = storeUUID
        self.frameworkVersion = frameworkVersion
        self.modelSource = modelSource
        self.modelSentence = modelSentence
        self.entities = entities
        self.relationshipCount = relationshipCount
        self.joinTableCount = joinTableCount
        self.notes = notes
    }
}
