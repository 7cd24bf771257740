import ObjectModel

extension StoreTransaction {
    /// The refusal of a change to a record of `entity` when the entity is read-only seed data kept
    /// in a seed store (`docs/seeding.md`, "Seed stores"), or `nil` when this store holds it.
    func seedDataRefusal(_ entity: String) -> StoreError? {
        guard layout.tableOfEntity[entity] == nil, let configuration = model.seedConfiguration(of: entity) else { return nil }
        return StoreError(
            .invalidRequest, path: store.path,
            message: "\(entity) is read-only seed data of configuration \(configuration), kept in the seed store \(store.seedStorePath(for: configuration)); the app never writes it",
            hint: "point user records at seed records by global ID (a String attribute marked storekeep.seedReference); change seed data by building a new seed store (`storekeep seed-store build`)")
    }
}
