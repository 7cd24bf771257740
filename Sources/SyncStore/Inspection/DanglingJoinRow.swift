/// A join table row one of whose sides names no record, or a record of an entity not allowed on
/// that side (``StoreInspection/forEachDanglingJoinRow(in:side:recordTable:allowed:_:)``).
public struct DanglingJoinRow: Hashable, Sendable {
    /// The row's owner side.
    public var owner: String
    /// The row's target side.
    public var target: String
    /// The entity of the record the checked side names, when one exists (of an entity not allowed).
    public var foundEntity: String?
}
