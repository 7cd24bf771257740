/// One entity of a model, with the properties it declares itself.
///
/// Inherited properties are not repeated here; ask the model
/// (``ManagedModel/attributes(of:)``) for the full list.
///
/// ```swift
/// let settings = EntityDescription(name: "Settings", attributes: [.init(name: "theme", type: .string)])
/// ```
public struct EntityDescription: Hashable, Sendable, Codable {
    /// The entity's name, unique in the model.
    public var name: String
    /// The name of the parent entity, if this entity inherits from one.
    public var parentName: String?
    /// Whether the entity has no records of its own (only sub-entities do).
    public var isAbstract: Bool
    /// The class name generated code uses (recorded only; not part of the version hash).
    public var className: String?
    /// The attributes this entity declares.
    public var attributes: [AttributeDescription]
    /// The relationships this entity declares.
    public var relationships: [RelationshipDescription]
    /// The names of fetched properties (queries, never stored).
    public var fetchedPropertyNames: [String]
    /// Core Data uniqueness constraints: each inner list is one set of property names that must be unique together.
    public var uniquenessConstraints: [[String]]
    /// Fetch indexes declared on the entity.
    public var fetchIndexes: [FetchIndexDescription]
    /// The renaming identifier.
    public var elementID: String?
    /// Text mixed into the version hash.
    public var versionHashModifier: String?
    /// Free-form key/value pairs from the model editor; storekeep reads its own keys from here.
    public var userInfo: [String: String]
    /// storekeep's facts about this entity, read from `userInfo` (see ``StorekeepFacts``).
    public var facts: StorekeepFacts

    /// Creates an entity description.
    public init(
        name: String, parentName: String? = nil, isAbstract: Bool = false, className: String? = nil,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        fetchedPropertyNames: [String] = [], uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndexDescription] = [], elementID: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        facts: StorekeepFacts = StorekeepFacts()
    ) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.className = className
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedPropertyNames = fetchedPropertyNames
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.facts = facts
    }

    /// The declared attribute named `name`, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The declared relationship named `name`, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}
