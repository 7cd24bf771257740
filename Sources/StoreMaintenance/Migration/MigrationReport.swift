/// What a migration did: per entity, what was read, written and rejected, and whether it verified.
public struct MigrationReport: Encodable, Sendable, Equatable {
    /// One stream's figures.
    public struct Stream: Encodable, Sendable, Equatable {
        /// The stream's name.
        public var stream: String
        /// Its entity.
        public var entity: String
        /// Records read from the source (written plus rejected; earlier runs included).
        public var read: Int
        /// Records written.
        public var written: Int
        /// Records rejected.
        public var rejected: Int
        /// Seconds spent on it in this run.
        public var seconds: Double
    }

    /// What the migration ended as.
    public enum Outcome: String, Encodable, Sendable {
        /// It ran to the end and verified.
        case completed
        /// It had already been completed before; nothing was changed.
        case alreadyCompleted
        /// It stopped at a rejected record (`--on-error stop`); the target can resume.
        case stoppedAtRejectedRecord
    }

    /// The outcome.
    public var outcome: Outcome
    /// The source as given.
    public var source: String
    /// What kind of source it was.
    public var sourceKind: String
    /// Where the source's model came from, when worth saying.
    public var modelNote: String?
    /// The target store.
    public var target: String
    /// The model name and version of the target.
    public var model: String
    /// The migration run's ID in the target's history.
    public var migrationID: Int64
    /// Whether this run resumed an interrupted one.
    public var resumed: Bool
    /// Per stream, in order.
    public var streams: [Stream]
    /// Whether per-entity counts and the digest of what was read matched what was written.
    public var verified: Bool
    /// The target's content digest at the end.
    public var digest: String?
    /// The report file of rejected records, when any were rejected.
    public var rejectedReport: String?
    /// The first rejection, when the run stopped at it.
    public var stoppedAt: String?
    /// The owner of a lock left by a process that no longer exists, which this run took over.
    public var tookOverStaleLock: StoreLock.Owner?
    /// Stored data of the source the target version has no place for, with how many values each
    /// held: not carried over (Core Data's own migration drops it too).
    public var droppedData: [DroppedData] = []
}
