/// One relationship of an entity, as declared in an Xcode data model.
///
/// A relationship is to-one unless `isToMany`; Xcode writes `maxCount="1"` on to-one
/// relationships, and `maxCount` on a to-many one limits its size.
///
/// ```swift
/// let type = RelationshipDescription(name: "type", destination: "SpeechType", inverseName: "speeches")
/// ```
public struct RelationshipDescription: Hashable, Sendable, Codable {
    /// The relationship's name, unique within its entity and the entity's ancestors.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// The entity that declares the inverse relationship, if any.
    public var inverseEntity: String?
    /// Whether the relationship holds a set (or ordered set) of records.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool
    /// Whether the relationship may be empty.
    public var isOptional: Bool
    /// Whether the relationship lives only in memory.
    public var isTransient: Bool
    /// What deleting the source does to the destination.
    public var deletionRule: DeletionRule
    /// The minimum number of destination records (0 when absent).
    public var minCount: Int
    /// The maximum number of destination records (0 when unbounded).
    public var maxCount: Int
    /// The renaming identifier.
    public var elementID: String?
    /// Text mixed into the version hash.
    public var versionHashModifier: String?
    /// Free-form key/value pairs from the model editor.
    public var userInfo: [String: String]

    /// Creates a relationship description; flags default to Xcode's "absent" meaning.
    public init(
        name: String, destination: String, inverseName: String? = nil, inverseEntity: String? = nil,
        isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = false,
        isTransient: Bool = false, deletionRule: DeletionRule = .nullify, minCount: Int = 0,
        maxCount: Int = 0, elementID: String? = nil, versionHashModifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destination = destination
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.deletionRule = deletionRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}
