/// A named subset of a model's entities (a Core Data configuration).
public struct ConfigurationDescription: Hashable, Sendable, Codable {
    /// The configuration's name.
    public var name: String
    /// The names of its member entities, as listed in the model.
    public var entityNames: [String]
    /// Whether the configuration is marked for use with CloudKit.
    public var usedWithCloudKit: Bool
    /// Key/value pairs of a `<userInfo>` inside the `<configuration>` element. Xcode's model
    /// editor has no field for them (they are written by hand); storekeep reads
    /// `storekeep.seedData` from here (`docs/models.md`).
    public var userInfo: [String: String]

    /// Creates a configuration description.
    public init(name: String, entityNames: [String], usedWithCloudKit: Bool = false, userInfo: [String: String] = [:]) {
        self.name = name
        self.entityNames = entityNames
        self.usedWithCloudKit = usedWithCloudKit
        self.userInfo = userInfo
    }

    private enum CodingKeys: String, CodingKey {
        case name, entityNames, usedWithCloudKit, userInfo
    }

    /// Decodes a configuration; a model kept in a store before `userInfo` existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        entityNames = try container.decode([String].self, forKey: .entityNames)
        usedWithCloudKit = try container.decode(Bool.self, forKey: .usedWithCloudKit)
        userInfo = try container.decodeIfPresent([String: String].self, forKey: .userInfo) ?? [:]
    }

    /// Encodes a configuration; an empty `userInfo` is left out, so the model kept in a store
    /// reads the same as before the key existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(entityNames, forKey: .entityNames)
        try container.encode(usedWithCloudKit, forKey: .usedWithCloudKit)
        if !userInfo.isEmpty { try container.encode(userInfo, forKey: .userInfo) }
    }
}
