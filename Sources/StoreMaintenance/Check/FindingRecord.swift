import SyncStore

/// One record of a group finding (duplicates, singletons), with what repair needs to choose the
/// record to keep without reading the store again.
///
/// `updated == nil` means the record was never changed after its insert: a seed record in that
/// state has not been touched by the user.
public struct FindingRecord: Codable, Sendable, Hashable {
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

    /// Creates an entry.
    public init(globalID: String, entity: String, created: Double, updated: Double?, seedSet: String?, seedVersion: Int64?) {
        self.globalID = globalID
        self.entity = entity
        self.created = created
        self.updated = updated
        self.seedSet = seedSet
        self.seedVersion = seedVersion
    }

    /// An entry for a record as the store's inspection describes it.
    init(_ record: InspectedRecord) {
        self.init(globalID: record.globalID, entity: record.entity, created: record.created, updated: record.updated,
                  seedSet: record.seedSet, seedVersion: record.seedVersion)
    }

    /// Whether a user changed the record after its insert (a seed record is then the user's).
    public var isModified: Bool { updated != nil }
}
