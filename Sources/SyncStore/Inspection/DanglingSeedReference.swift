/// A user record whose seed reference (`storekeep.seedReference`) names no record of the seed store
/// (``StoreInspector/forEachSeedStore(of:model:limit:_:)``, ``SyncStore/danglingSeedReferences(ifSeedStoreAt:configuration:limit:)``).
public struct DanglingSeedReference: Codable, Hashable, Sendable {
    /// The user record's entity.
    public var entity: String
    /// The user record's global ID.
    public var globalID: String
    /// The attribute holding the reference.
    public var attribute: String
    /// The attribute's value (the global ID it points at), as text.
    public var target: String
    /// The seed entity the attribute points into.
    public var targetEntity: String

    /// Creates a description.
    public init(entity: String, globalID: String, attribute: String, target: String, targetEntity: String) {
        self.entity = entity
        self.globalID = globalID
        self.attribute = attribute
        self.target = target
        self.targetEntity = targetEntity
    }
}
