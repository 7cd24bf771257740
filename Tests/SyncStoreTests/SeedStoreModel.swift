import ObjectModel

/// Article 4's model in code: Rating (the user's, pointing at a Postcode by global ID) and the
/// read-only seed configuration Postcodes (County ← Postcode).
enum SeedStoreModel {
    static func model() -> ManagedModel {
        let county = EntityDescription(
            name: "County", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "postcodes", destination: "Postcode", inverseName: "county", isToMany: true, isOptional: true)],
            facts: StorekeepFacts(seedKey: ["name"]))
        let postcode = EntityDescription(
            name: "Postcode", attributes: [.init(name: "postcode", type: .string), .init(name: "town", type: .string)],
            relationships: [.init(name: "county", destination: "County", inverseName: "postcodes", maxCount: 1)],
            facts: StorekeepFacts(seedKey: ["postcode"]))
        let rating = EntityDescription(name: "Rating", attributes: [
            .init(name: "postcode", type: .string, userInfo: [ManagedModel.seedReferenceKey: "Postcode"]),
            .init(name: "stars", type: .integer16),
        ])
        return ManagedModel(name: "Postcodes", versionName: "Postcodes 1", entities: [county, postcode, rating], configurations: [
            ConfigurationDescription(name: "Postcodes", entityNames: ["County", "Postcode"], userInfo: [ManagedModel.seedDataKey: "YES"]),
            ConfigurationDescription(name: "User", entityNames: ["Rating"]),
        ])
    }
}
