/// A to-one relationship that names no record, or a record of an entity its destination does not
/// allow (``StoreInspection/forEachDanglingToOne(_:holders:targetTable:allowed:_:)``).
public struct DanglingToOne: Hashable, Sendable {
    /// The holder's global ID.
    public var globalID: String
    /// The holder's exact entity.
    public var entity: String
    /// The global ID the relationship names.
    public var target: String
    /// The entity of the record named, when there is one (of an entity not allowed); `nil` when none exists.
    public var targetEntity: String?
}
