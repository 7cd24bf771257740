/// What a migration would do, printed by `--dry-run` before anything is written.
public struct MigrationPlan: Encodable, Sendable, Equatable {
    /// One stream to read.
    public struct Stream: Encodable, Sendable, Equatable {
        /// The stream's name.
        public var stream: String
        /// Its entity.
        public var entity: String
        /// Records it holds, when known.
        public var estimatedRows: Int?
        /// Records already written by an interrupted run (0 for a new run).
        public var alreadyWritten: Int
    }

    /// The source as given.
    public var source: String
    /// What kind of source it is.
    public var sourceKind: String
    /// Where the source's model came from, when worth saying.
    public var modelNote: String?
    /// The target store.
    public var target: String
    /// The target model: name, version and hash.
    public var model: String
    /// The target model's version hash.
    public var modelHash: String
    /// What the run would be: `new`, `resume` or `alreadyCompleted`.
    public var mode: String
    /// The streams, in order.
    public var streams: [Stream]
    /// The steps, in words.
    public var steps: [String]
    /// Stored data of the source the target version has no place for, with how many values each
    /// holds: the run would not carry it over (see ``MigrationReport/droppedData``).
    public var droppedData: [DroppedData] = []
}
