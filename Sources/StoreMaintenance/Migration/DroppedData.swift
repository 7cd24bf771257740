/// Stored data of the source that a migration does not carry to its target: an attribute or
/// relationship the target version has no place for, or an entity it removes. Core Data's own
/// lightweight migration drops the same data without a word; a migration's plan and report list
/// it (only what holds values), and the command line warns about it.
///
/// ```swift
/// report.droppedData   // [DroppedData(kind: .attribute, entity: "Post", property: "color", values: 10, step: "Example → Example 4")]
/// ```
public struct DroppedData: Encodable, Sendable, Equatable {
    /// What is dropped.
    public enum Kind: String, Encodable, Sendable {
        /// An attribute's values.
        case attribute
        /// A relationship's targets, kept by its own records (a to-one, or a to-many in a join table).
        case relationship
        /// Every record of an entity.
        case entity
    }

    /// What is dropped.
    public var kind: Kind
    /// The entity, named as in the source's version.
    public var entity: String
    /// The attribute or relationship, named as in the source's version (`nil` for an entity).
    public var property: String?
    /// How many records hold a value for it (for an entity: its records).
    public var values: Int
    /// The step that drops it ("from → to").
    public var step: String

    /// Creates an entry.
    public init(kind: Kind, entity: String, property: String?, values: Int, step: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.values = values
        self.step = step
    }

    /// "Post.color (10 values)", "entity Draft (3 records)".
    public var words: String {
        switch kind {
        case .entity: return "entity \(entity) (\(values) record\(values == 1 ? "" : "s"))"
        case .attribute: return "\(entity).\(property ?? "?") (\(values) value\(values == 1 ? "" : "s"))"
        case .relationship: return "\(entity).\(property ?? "?") (\(values) record\(values == 1 ? "" : "s") with targets)"
        }
    }
}
