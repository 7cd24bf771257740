/// What `repair` planned and did to one store.
///
/// Field names are part of the JSON contract of `storekeep repair --json`: fields are only ever added.
public struct RepairReport: Codable, Sendable {
    /// The store file, as given.
    public var path: String
    /// Whether this was a dry run (nothing changed).
    public var dryRun: Bool
    /// The plan: fixes in the order applied, and the findings left.
    public var plan: RepairPlan
    /// Whether the run went as far as applying the plan (`false` for a dry run).
    public var applied: Bool
    /// How many of the plan's fixes were carried out completely; the others are explained in ``skipped``
    /// and ``recentFilesKept``. Always 0 for a dry run.
    public var fixesApplied: Int
    /// The backup made before applying, when one was made.
    public var backup: String?
    /// Entries of the blob folder the backup left out, with why: symbolic links and special files,
    /// which are never followed out of the store's folder.
    public var backupLeftOut: [String] = []
    /// Each part of a fix that was not carried out, with the reason.
    public var skipped: [String]
    /// Orphaned files kept because they changed within the grace period.
    public var recentFilesKept: [String]
    /// After applying: the findings of the repaired codes that `check` still reports.
    public var remaining: [CheckFinding]
    /// Seconds the repair took.
    public var seconds: Double

    /// Creates a report.
    public init(path: String, dryRun: Bool, plan: RepairPlan, applied: Bool = false, backup: String? = nil,
                skipped: [String] = [], recentFilesKept: [String] = [], remaining: [CheckFinding] = [], seconds: Double = 0) {
        self.path = path
        self.dryRun = dryRun
        self.plan = plan
        self.applied = applied
        self.fixesApplied = 0
        self.backup = backup
        self.skipped = skipped
        self.recentFilesKept = recentFilesKept
        self.remaining = remaining
        self.seconds = seconds
    }
}
