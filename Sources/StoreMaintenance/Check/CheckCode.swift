/// The stable code of each kind of finding `check` reports (documented in `docs/checks.md`).
///
/// Raw values are part of the operator contract: they are never renamed or reused; new codes are
/// only added. Each code has one fixed ``severity``.
///
/// ```swift
/// CheckCode.seedDuplicate.rawValue   // "seed.duplicate"
/// CheckCode.seedDuplicate.severity   // .violation
/// ```
public enum CheckCode: String, Codable, Sendable, CaseIterable, Comparable {
    /// `PRAGMA quick_check` (or `integrity_check` with `--full`) reported a problem.
    case sqliteIntegrity = "sqlite.integrity"
    /// `sk_metadata` has no readable `formatVersion`.
    case metadataFormatVersion = "metadata.formatVersion"
    /// A key `sk_metadata` must hold is absent (for example `modelHash`).
    case metadataMissingKey = "metadata.missingKey"
    /// `sk_model` does not hold exactly one readable model definition.
    case metadataModelUnreadable = "metadata.modelUnreadable"
    /// The model definition in `sk_model` does not hash to the store's `modelHash`.
    case metadataModelInconsistent = "metadata.modelInconsistent"
    /// The store was made for another model version than the one given with `--model`.
    case metadataModelMismatch = "metadata.modelMismatch"
    /// `sk_column` disagrees with the model or with the tables (a table, column or mapping row missing).
    case schemaMismatch = "schema.mismatch"
    /// A record's `_entity` is not a concrete entity of its table's family.
    case recordUnknownEntity = "record.unknownEntity"
    /// A required attribute is empty.
    case recordRequiredAttribute = "record.requiredAttribute"
    /// A required relationship is empty.
    case recordRequiredRelationship = "record.requiredRelationship"
    /// A to-many relationship has fewer members than its minimum count or more than its maximum.
    case recordRelationshipCount = "record.relationshipCount"
    /// A value is below the attribute's minimum or above its maximum (a length, for strings).
    case recordValueOutOfRange = "record.valueOutOfRange"
    /// A string value does not match the attribute's regular expression.
    case recordPatternMismatch = "record.patternMismatch"
    /// A column holds a value of a kind its attribute type never stores (text in an integer column).
    case recordWrongType = "record.wrongType"
    /// A to-one relationship names a global ID no record has.
    case relationshipDanglingTarget = "relationship.danglingTarget"
    /// A to-one relationship names a record of an entity its destination does not allow.
    case relationshipWrongTargetEntity = "relationship.wrongTargetEntity"
    /// A join table row whose owner or target does not exist (or is of the wrong entity).
    case relationshipDanglingJoinRow = "relationship.danglingJoinRow"
    /// Several records claim one target through a to-one relationship whose inverse is to-one.
    case relationshipSharedTarget = "relationship.sharedTarget"
    /// The two columns of a one-to-one pair disagree: A points at B, B does not point back at A.
    case relationshipInverseMismatch = "relationship.inverseMismatch"
    /// A singleton entity has more than one live record.
    case singletonDuplicate = "singleton.duplicate"
    /// Seed records share their identifying attributes.
    case seedDuplicate = "seed.duplicate"
    /// Records break one of the entity's Core Data uniqueness constraints.
    case uniqueViolated = "unique.violated"
    /// A peer's transaction sequence numbers have a gap.
    case historySequenceGap = "history.sequenceGap"
    /// `sk_change` rows, or `sk_insert_run` rows, belong to a transaction `sk_transaction` does not have.
    case historyOrphanChange = "history.orphanChange"
    /// Records whose `_insert_run` names an insert run `sk_insert_run` does not have (format 3).
    case historyUnknownInsertRun = "history.unknownInsertRun"
    /// Transactions of a peer that `sk_peer` does not list.
    case historyUnknownPeer = "history.unknownPeer"
    /// `sk_peer` does not mark exactly the store's own peer as local.
    case peerLocalMissing = "peer.localMissing"
    /// A record refers to an external binary file that does not exist.
    case blobMissing = "blob.missing"
    /// A file in the blob folder that no record refers to.
    case blobOrphaned = "blob.orphaned"
    /// An external binary file's content does not hash to its name (`--full` only).
    case blobContentMismatch = "blob.contentMismatch"
    /// A binary column holds text that is not a `sha256:<64 hex digits>` reference.
    case blobBadReference = "blob.badReference"
    /// A migration run started and never finished (and no live process holds the store's lock).
    case migrationUnfinished = "migration.unfinished"
    /// A migration run finished unsuccessfully (its verification failed).
    case migrationFailed = "migration.failed"
    /// A mapping or step file applied by a migration has changed since.
    case migrationFileChanged = "migration.fileChanged"
    /// A mapping or step file applied by a migration is no longer where it was.
    case migrationFileMissing = "migration.fileMissing"
    /// The local peer's stored sequence counter is behind the sequence numbers its history holds.
    case syncCounterBehind = "sync.counterBehind"
    /// The store says it exported more of its own transactions than it has issued.
    case syncExportedAhead = "sync.exportedAhead"
    /// A watermark is ahead of, or behind, the transactions of that peer the history holds.
    case syncWatermarkMismatch = "sync.watermarkMismatch"
    /// Local transactions not yet exported are missing from the history.
    case syncUnexportedMissing = "sync.unexportedMissing"
    /// The store's content name was rekeyed in its container; the store has not followed yet.
    case syncRedirected = "sync.redirected"
    /// One of storekeep's own tables (`sk_…`) holds a value of a kind storekeep never writes there
    /// (text where a sequence number belongs, a blob where a key belongs).
    case storeDamagedValue = "store.damagedValue"
    /// The store's lock file was left by a process that no longer exists.
    case lockStale = "lock.stale"
    /// The store's lock file cannot be read.
    case lockUnreadable = "lock.unreadable"
    /// The model has a seed configuration whose seed store is not beside the store.
    case seedStoreMissing = "seedStore.missing"
    /// The seed store beside the store is not that configuration's, or holds other seed entities.
    case seedStoreMismatch = "seedStore.mismatch"
    /// A user record's seed reference names no record of the seed store.
    case seedStoreDanglingReference = "seedStore.danglingReference"

    /// The code's fixed severity.
    public var severity: CheckSeverity {
        switch self {
        case .historyUnknownPeer, .syncRedirected, .blobOrphaned, .migrationFileChanged, .migrationFileMissing, .lockStale, .lockUnreadable:
            return .warning
        default:
            return .violation
        }
    }

    /// Orders codes by their text (the order findings are listed in).
    public static func < (lhs: CheckCode, rhs: CheckCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
