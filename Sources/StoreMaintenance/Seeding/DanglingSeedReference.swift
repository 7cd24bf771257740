/// A user record whose seed reference (`storekeep.seedReference`) names no record of the seed store.
public struct DanglingSeedReference: Codable, Hashable, Sendable {
    /// The user record's entity and global ID.
    public var entity: String
    public var globalID: String
    /// The attribute holding the reference, and its value (the global ID it points at).
    public var attribute: String
    public var target: String
    /// The seed entity the attribute points into.
    public var targetEntity: String
}
