/// A record whose to-many relationship has a number of members outside its bounds
/// (``StoreInspection/forEachMemberCount(of:ownerTable:holders:outside:_:)``).
public struct MemberCount: Hashable, Sendable {
    /// The record's global ID.
    public var globalID: String
    /// Its exact entity.
    public var entity: String
    /// How many members it has.
    public var count: Int
}
