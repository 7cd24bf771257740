/// One version of a data model: its entities, configurations and composite types.
///
/// Entities keep only the properties they declare; the model answers questions that need the
/// inheritance tree (all attributes of an entity, its root, its sub-entities).
///
/// ```swift
/// let model = ManagedModel(name: "SpeechTimer", versionName: "SpeechTimer 2", entities: [speech, type])
/// model.attributes(of: "Speech").map(\.name)
/// model.versionHash   // 64 hex digits
/// ```
public struct ManagedModel: Hashable, Sendable, Codable {
    /// The model's name (the bundle name without `.xcdatamodeld`).
    public var name: String
    /// The version's name (the `.xcdatamodel` folder name without extension).
    public var versionName: String
    /// The model's own version identifier (`userDefinedModelVersionIdentifier`), often empty.
    public var versionIdentifier: String
    /// The entities, in the order the model file lists them.
    public var entities: [EntityDescription]
    /// The configurations.
    public var configurations: [ConfigurationDescription]
    /// The composite attribute types.
    public var composites: [CompositeDescription]

    /// Creates a model version.
    public init(
        name: String, versionName: String, versionIdentifier: String = "",
        entities: [EntityDescription], configurations: [ConfigurationDescription] = [],
        composites: [CompositeDescription] = []
    ) {
        self.name = name
        self.versionName = versionName
        self.versionIdentifier = versionIdentifier
        self.entities = entities
        self.configurations = configurations
        self.composites = composites
    }

    /// The entity named `name`, if any.
    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    /// The chain from the root entity down to `name` (inclusive); empty for an unknown entity.
    ///
    /// A cycle in `parentName` ends the chain where it repeats (``structuralProblems()`` reports it).
    public func inheritanceChain(of name: String) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var seen = Set<String>()
        var next: String? = name
        while let current = next, !seen.contains(current), let entity = entity(named: current) {
            chain.insert(entity, at: 0)
            seen.insert(current)
            next = entity.parentName
        }
        return chain
    }

    /// The root of `name`'s inheritance tree (the entity itself when it has no parent).
    public func rootEntity(of name: String) -> EntityDescription? {
        inheritanceChain(of: name).first
    }

    /// Every attribute of `name`, inherited ones first, transient ones included.
    public func attributes(of name: String) -> [AttributeDescription] {
        inheritanceChain(of: name).flatMap(\.attributes)
    }

    /// Every relationship of `name`, inherited ones first, transient ones included.
    public func relationships(of name: String) -> [RelationshipDescription] {
        inheritanceChain(of: name).flatMap(\.relationships)
    }

    /// The attribute `attribute` of entity `name`, looking through ancestors.
    public func attribute(_ attribute: String, of name: String) -> AttributeDescription? {
        attributes(of: name).first { $0.name == attribute }
    }

    /// The relationship `relationship` of entity `name`, looking through ancestors.
    public func relationship(_ relationship: String, of name: String) -> RelationshipDescription? {
        relationships(of: name).first { $0.name == relationship }
    }

    /// The entities that inherit from `name`, directly or not, in model order.
    public func descendants(of name: String) -> [EntityDescription] {
        entities.filter { $0.name != name && inheritanceChain(of: $0.name).contains { $0.name == name } }
    }

    /// Whether `name` is `ancestor` or inherits from it.
    public func entity(_ name: String, isKindOf ancestor: String) -> Bool {
        inheritanceChain(of: name).contains { $0.name == ancestor }
    }

    /// The root entities (entities without a parent), in model order: one store table each.
    public var rootEntities: [EntityDescription] {
        entities.filter { $0.parentName == nil }
    }

    /// storekeep facts in force for `name`: its own when it declares any, else its nearest ancestor's.
    public func facts(of name: String) -> StorekeepFacts {
        inheritanceChain(of: name).reversed().first { !$0.facts.isEmpty }?.facts ?? StorekeepFacts()
    }

    /// The attributes whose values identify a record after it is deleted: its seed key and every
    /// attribute named in a uniqueness constraint, without duplicates, in that order.
    public func identifyingAttributes(of name: String) -> [String] {
        var names: [String] = []
        let constraints = inheritanceChain(of: name).flatMap(\.uniquenessConstraints).flatMap { $0 }
        for candidate in facts(of: name).seedKey + constraints where !names.contains(candidate) {
            if attribute(candidate, of: name) != nil { names.append(candidate) }
        }
        return names
    }
}
