extension ManagedModel {
    /// What makes the model's seed configurations unusable, one sentence each (empty when the model
    /// has none, or they are sound). Read after the storekeep facts are known: a seed entity needs
    /// its seed key.
    ///
    /// Refused: a marking value that is not YES or NO; an entity naming a configuration it is not a
    /// member of; a seed configuration that is empty or also the user's (an entity in it and in a
    /// configuration that is not seed data); an inheritance family split between seed and user data
    /// or between two seed configurations; a seed entity without `storekeep.seedKey` (seed records
    /// get IDs derived from it, so that references survive a rebuild); a relationship between seed
    /// and user data or between two seed configurations (Core Data refuses relationships between
    /// stores too); a seed attribute allowing external storage (a seed store is one file); a
    /// `storekeep.seedReference` that is not a String attribute of a user entity naming a seed entity.
    public func seedConfigurationProblems() -> [String] {
        var problems: [String] = []
        let seedNames = Set(seedConfigurations.map(\.name))
        for configuration in configurations {
            if let flag = configuration.userInfo[Self.seedDataKey], Self.flag(flag) == nil {
                problems.append("configuration \(configuration.name): \(Self.seedDataKey) is '\(flag)', not YES or NO")
            }
        }
        for entity in entities {
            guard let named = entity.userInfo[Self.seedConfigurationKey]?.trimmingCharacters(in: .whitespaces) else { continue }
            if !(configurations.first { $0.name == named }?.entityNames.contains(entity.name) ?? false) {
                problems.append("entity \(entity.name): \(Self.seedConfigurationKey) names configuration '\(named)', which does not list \(entity.name) as a member")
            }
        }
        for configuration in seedConfigurations {
            if configuration.entityNames.isEmpty { problems.append("seed configuration \(configuration.name) has no entities") }
            for other in configurations where !seedNames.contains(other.name) {
                for shared in configuration.entityNames where other.entityNames.contains(shared) {
                    problems.append("entity \(shared) is in seed configuration \(configuration.name) and in configuration \(other.name), which is not seed data")
                }
            }
        }
        for root in rootEntities {
            let family = [root] + descendants(of: root.name)
            let places = Set(family.map { seedConfiguration(of: $0.name) ?? "" })
            if places.count > 1 {
                problems.append("the entities inheriting from \(root.name) are split between \(places.sorted().map { $0.isEmpty ? "the user's data" : "seed configuration \($0)" }.joined(separator: " and ")); a family lives in one store")
            }
        }
        for entity in entities {
            let home = seedConfiguration(of: entity.name)
            if let home, facts(of: entity.name).seedKey.isEmpty {
                problems.append("entity \(entity.name) of seed configuration \(home) has no storekeep.seedKey: seed-store records get global IDs derived from it, so that user records keep pointing at them when the seed store is rebuilt")
            }
            if let home, let external = entity.attributes.first(where: { $0.allowsExternalBinaryDataStorage && !$0.isTransient }) {
                problems.append("attribute \(entity.name).\(external.name) of seed configuration \(home) allows external storage: a seed store keeps every value inside its one file (it is replaced by a rename); turn Allows External Storage off")
            }
            for relationship in entity.relationships where !relationship.isTransient {
                let there = seedConfiguration(of: relationship.destination)
                guard home != there else { continue }
                problems.append("relationship \(entity.name).\(relationship.name) goes from \(Self.place(home)) to \(Self.place(there)): a relationship cannot cross stores; point at a seed record with a String attribute marked \(Self.seedReferenceKey) instead")
            }
        }
        for reference in seedReferences {
            let attribute = self.entity(named: reference.entity)?.attribute(named: reference.attribute)
            if attribute?.type != .string || attribute?.isTransient == true {
                problems.append("attribute \(reference.entity).\(reference.attribute) is marked \(Self.seedReferenceKey) but is not a stored String attribute (it holds a global ID)")
            }
            if seedConfiguration(of: reference.entity) != nil {
                problems.append("attribute \(reference.entity).\(reference.attribute) is marked \(Self.seedReferenceKey) but \(reference.entity) is seed data itself; use a relationship inside the seed configuration")
            }
            if entity(named: reference.target) == nil || seedConfiguration(of: reference.target) == nil {
                problems.append("attribute \(reference.entity).\(reference.attribute): \(Self.seedReferenceKey) names '\(reference.target)', which is not an entity of a seed configuration")
            }
        }
        return problems
    }

    private static func place(_ configuration: String?) -> String {
        configuration.map { "seed configuration \($0)" } ?? "the user's data"
    }
}
