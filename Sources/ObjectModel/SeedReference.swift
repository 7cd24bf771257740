/// A user record's reference to a record of a seed store (`docs/models.md`, "Seed configurations"):
/// a String attribute of a user entity whose value is the global ID of a record of a seed entity,
/// marked with `storekeep.seedReference = <seed entity>` in the attribute's `userInfo`.
///
/// Core Data refuses relationships between stores (article 4), so a reference into a seed store
/// is a value, which `storekeep check` verifies against the seed store.
public struct SeedReference: Hashable, Sendable {
    /// The user entity that declares the attribute.
    public var entity: String
    /// The attribute holding the target's global ID.
    public var attribute: String
    /// The seed entity the value points at (sub-entities included).
    public var target: String

    /// Creates a reference description.
    public init(entity: String, attribute: String, target: String) {
        self.entity = entity
        self.attribute = attribute
        self.target = target
    }
}
