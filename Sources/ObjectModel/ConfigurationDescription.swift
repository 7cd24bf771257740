/// A named subset of a model's entities (a Core Data configuration).
public struct ConfigurationDescription: Hashable, Sendable, Codable {
    /// The configuration's name.
    public var name: String
    /// The names of its member entities, as listed in the model.
    public var entityNames: [String]
    /// Whether the configuration is marked for use with CloudKit.
    public var usedWithCloudKit: Bool

    /// Creates a configuration description.
    public init(name: String, entityNames: [String], usedWithCloudKit: Bool = false) {
        self.name = name
        self.entityNames = entityNames
        self.usedWithCloudKit = usedWithCloudKit
    }
}
