/// What one planned fix does to the store (documented in `docs/repair.md`).
///
/// Raw values are part of the JSON contract of `storekeep repair --json`; new actions are only added.
public enum RepairAction: String, Codable, Sendable, Comparable, CaseIterable {
    /// Empty a to-one relationship that points at no record, or at a record of the wrong entity.
    case nullifyReference
    /// Empty one side of a one-to-one relationship whose target belongs to another record.
    case releaseSlot
    /// Remove a join-table row one of whose sides names no record.
    case removeJoinRow
    /// Move every link of the duplicates to the record kept, then delete the duplicates.
    case mergeDuplicates
    /// Delete an invalid record (its entity's policy is `delete`).
    case deleteRecord
    /// Remove an external binary file no record refers to.
    case removeOrphanedFile
    /// Take over the lock file a dead process left (by taking the store's lock for the repair).
    case takeOverStaleLock
    /// Move the sequence counter up, and set watermarks to what the history holds.
    case realignSyncCounters

    /// The order fixes are applied in: references first (so that merges and deletes meet no
    /// dangling link), then merges, deletes, and last the files outside the database.
    var rank: Int {
        switch self {
        case .takeOverStaleLock: return 0
        case .realignSyncCounters: return 1
        case .nullifyReference: return 1
        case .releaseSlot: return 2
        case .removeJoinRow: return 3
        case .mergeDuplicates: return 4
        case .deleteRecord: return 5
        case .removeOrphanedFile: return 6
        }
    }

    /// Orders actions by the order they are applied in.
    public static func < (lhs: RepairAction, rhs: RepairAction) -> Bool { lhs.rank < rhs.rank }
}
