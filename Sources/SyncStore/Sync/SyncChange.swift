import ObjectModel

/// One record's change inside a ``SyncTransaction``, with the values it set.
///
/// ```swift
/// SyncChange(kind: .update, entity: "Speech", globalID: id,
///            properties: [.attribute("title", .string("Keynote")), .toOne("type", target: typeID)])
/// ```
public struct SyncChange: Hashable, Sendable {
    /// Insert, update or delete.
    public var kind: ChangeKind
    /// The record's exact entity.
    public var entity: String
    /// The record.
    public var globalID: GlobalID
    /// For an insert: the seed set, when the record is seed data.
    public var seed: SeedMark?
    /// For an insert or an update: the properties set, with their values (an insert lists every
    /// value it stored; an update only what changed).
    public var properties: [SyncPropertyChange]
    /// For a delete: the values of the record's identifying attributes (seed key, uniqueness constraints).
    public var tombstone: [String: AttributeValue]
    /// The change's payload as a log holds it, when it was read by a decoder that keeps payloads
    /// instead of decoding them (``TransactionLogDecoder/init(model:peer:decodingPayloads:)``);
    /// ``properties`` and ``tombstone`` are then empty. The import decodes it when it needs to, and
    /// binds an insert's values straight from it.
    public var encodedPayload: [UInt8]?

    /// Creates a change.
    public init(kind: ChangeKind, entity: String, globalID: GlobalID, seed: SeedMark? = nil,
                properties: [SyncPropertyChange] = [], tombstone: [String: AttributeValue] = [:]) {
        self.kind = kind
        self.entity = entity
        self.globalID = globalID
        self.seed = seed
        self.properties = properties
        self.tombstone = tombstone
    }
}

/// One property a ``SyncChange`` sets.
public enum SyncPropertyChange: Hashable, Sendable {
    /// An attribute's new value.
    case attribute(String, AttributeValue)
    /// A to-one relationship's new target (`nil`: empty), and the record's position in the
    /// target's ordered to-many inverse, when that inverse is ordered.
    case toOne(String, target: GlobalID?, order: Int64? = nil)
    /// Members added to, or removed from, a to-many relationship kept in a join table.
    case toMany(String, [MembershipChange])

    /// The property's name.
    public var name: String {
        switch self {
        case .attribute(let name, _), .toOne(let name, _, _), .toMany(let name, _): return name
        }
    }
}

/// One member added to, or removed from, a to-many relationship.
public struct MembershipChange: Hashable, Sendable {
    /// The member.
    public var member: GlobalID
    /// `true` when added (or moved), `false` when removed.
    public var added: Bool
    /// The member's position in the relationship, when it is ordered.
    public var order: Int64?
    /// The record's position in the member's inverse relationship, when that one is ordered.
    public var inverseOrder: Int64?

    /// Creates a membership change.
    public init(member: GlobalID, added: Bool, order: Int64? = nil, inverseOrder: Int64? = nil) {
        self.member = member
        self.added = added
        self.order = order
        self.inverseOrder = inverseOrder
    }
}
