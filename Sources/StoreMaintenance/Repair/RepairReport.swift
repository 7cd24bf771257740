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
    /// Whether the fixes were applied.
    public var applied: Bool
    /// The backup made before applying, when one was made.
    public var backup: String?
    /// Fixes that turned out to have nothing left to do, or could not be applied, with the reason.
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
        self.backup = backup
        self.skipped = skipped
        self.recentFilesKept = recentFilesKept
        self.remaining = remaining
        self.seconds = seconds
    }
}
