/// Seed configurations (article 4): a configuration marked read-only seed data keeps its entities in
/// a seed store of their own, beside the user's store (`docs/models.md`, "Seed configurations").
///
/// A configuration is marked either by `storekeep.seedData = YES` in its own `<userInfo>` (written
/// by hand: Xcode's model editor has no User Info for configurations) or by
/// `storekeep.seedConfiguration = <configuration>` in the User Info of its member entities (which
/// Xcode edits). User records point at seed records through String attributes marked
/// `storekeep.seedReference = <seed entity>`.
///
/// ```swift
/// model.seedConfigurations.map(\.name)       // ["Postcodes"]
/// model.seedConfiguration(of: "Postcode")     // "Postcodes"
/// model.seedReferences.first?.attribute       // "postcode" (of Rating)
/// ```
extension ManagedModel {
    /// The configuration `userInfo` key marking it read-only seed data (`YES`/`NO`).
    public static let seedDataKey = "storekeep.seedData"
    /// The entity `userInfo` key naming the seed configuration it belongs to.
    public static let seedConfigurationKey = "storekeep.seedConfiguration"
    /// The attribute `userInfo` key naming the seed entity a String attribute points at.
    public static let seedReferenceKey = "storekeep.seedReference"

    /// The configurations marked read-only seed data, sorted by name (empty for most models).
    public var seedConfigurations: [ConfigurationDescription] {
        configurations.filter(isSeedData).sorted { $0.name < $1.name }
    }

    /// The seed configuration entity `name` belongs to (through itself or an ancestor), or `nil`
    /// for the user's data.
    public func seedConfiguration(of name: String) -> String? {
        let chain = Set(inheritanceChain(of: name).map(\.name))
        return seedConfigurations.first { configuration in configuration.entityNames.contains(where: chain.contains) }?.name
    }

    /// The entities of seed configuration `configuration`, with their sub-entities, in model order.
    public func seedEntities(of configuration: String) -> [EntityDescription] {
        entities.filter { seedConfiguration(of: $0.name) == configuration }
    }

    /// Every reference from a user entity into a seed entity, sorted by entity then attribute.
    public var seedReferences: [SeedReference] {
        entities.flatMap { entity in
            entity.attributes.compactMap { attribute in
                attribute.userInfo[Self.seedReferenceKey].map {
                    SeedReference(entity: entity.name, attribute: attribute.name, target: $0.trimmingCharacters(in: .whitespaces))
                }
            }
        }.sorted { ($0.entity, $0.attribute) < ($1.entity, $1.attribute) }
    }

    /// Whether `configuration` is marked read-only seed data, by its own `userInfo` or by a member
    /// entity naming it.
    func isSeedData(_ configuration: ConfigurationDescription) -> Bool {
        if let flag = configuration.userInfo[Self.seedDataKey], Self.flag(flag) == true { return true }
        return configuration.entityNames.contains { entity(named: $0)?.userInfo[Self.seedConfigurationKey]?.trimmingCharacters(in: .whitespaces) == configuration.name }
    }

    /// `YES`/`NO` (also `true`/`false`/`1`/`0`, any case) as a Boolean; `nil` for anything else.
    static func flag(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }
}
