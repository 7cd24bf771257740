import GRDB

/// A record as an inspection describes a member of a group (duplicates, records sharing a target):
/// what choosing one of them to keep needs, read leniently (a field that does not read is empty).
///
/// ```swift
/// for record in group.records where record.updated == nil { print(record.globalID, "never changed since its insert") }
/// ```
public struct InspectedRecord: Hashable, Sendable {
    /// The record's global ID.
    public var globalID: String
    /// Its exact entity.
    public var entity: String
    /// When it was created, seconds since 1970.
    public var created: Double
    /// When it was last updated, seconds since 1970; `nil` when never updated since its insert.
    public var updated: Double?
    /// The seed set that inserted it; `nil` for the user's records.
    public var seedSet: String?
    /// The version of that seed set.
    public var seedVersion: Int64?

    /// The fixed columns a member is read from.
    static let columns = "_gid, _entity, _created, _updated, _seed_set, _seed_version"

    /// A member from a row holding ``columns``.
    init(_ row: Row) {
        globalID = row.stored("_gid", as: String.self) ?? ""
        entity = row.stored("_entity", as: String.self) ?? ""
        created = row.stored("_created", as: Double.self) ?? 0
        updated = row.stored("_updated", as: Double.self)
        seedSet = row.stored("_seed_set", as: String.self)
        seedVersion = row.stored("_seed_version", as: Int64.self)
    }
}
