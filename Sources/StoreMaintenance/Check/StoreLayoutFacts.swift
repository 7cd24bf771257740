import ObjectModel

/// Facts about the model that the store layout depends on (`docs/format.md`), as the detectors need them.
enum StoreLayoutFacts {
    /// The inverse of `relationship`, when the model declares one.
    static func inverse(of relationship: RelationshipDescription, in model: ManagedModel) -> RelationshipDescription? {
        guard let name = relationship.inverseName else { return nil }
        return model.relationship(name, of: relationship.inverseEntity ?? relationship.destination)
    }

    /// The entity that declares `relationship` among `entity` and its ancestors.
    static func declarer(of relationship: String, for entity: String, in model: ManagedModel) -> String? {
        model.inheritanceChain(of: entity).last { $0.relationship(named: relationship) != nil }?.name
    }
}
