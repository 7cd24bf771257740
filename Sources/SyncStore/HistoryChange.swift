import ObjectModel

/// One change of one record inside a history transaction.
public struct HistoryChange: Hashable, Sendable, Codable {
    /// The record's entity (its exact entity, not the root).
    public var entity: String
    /// The record's global ID.
    public var globalID: GlobalID
    /// What happened.
    public var kind: ChangeKind
    /// The attributes and relationships that changed (for an insert: the ones given, defaults included), sorted.
    public var properties: [String]
    /// For a delete: the values of the attributes that identify the record (seed key, uniqueness constraints).
    public var tombstone: [String: AttributeValue]?

    /// Creates a change.
    public init(entity: String, globalID: GlobalID, kind: ChangeKind, properties: [String], tombstone: [String: AttributeValue]? = nil) {
        self.entity = entity
        self.globalID = globalID
        self.kind = kind
        self.properties = properties
        self.tombstone = tombstone
    }
}
