/// What one `storekeep seed` did (its `--json` document; fields are only ever added).
public struct SeedReport: Codable, Sendable {
    /// The store's path.
    public var store: String
    /// The seed set's name and the version seeded.
    public var seedSet: String
    /// The seed set's version.
    public var version: Int
    /// The account seeded for (empty: the store has none).
    public var account: String
    /// Whether nothing was saved (`--dry-run`).
    public var dryRun: Bool
    /// Whether the store had already been seeded with this version (or a newer one) for the account: nothing was done.
    public var alreadySeeded = false
    /// The version seeded before, when there was one.
    public var previousVersion: Int?
    /// Records inserted (global IDs), refreshed to this version, adopted (a record under another
    /// ID that matched the seed key, an older app's seed: it now carries this set's seed mark and,
    /// unless the user edited it, this version's values), kept because the user edited them (an
    /// edited adopted record is in both lists), and left out because the user deleted them.
    public var inserted: [String] = []
    public var refreshed: [String] = []
    public var adopted: [String] = []
    public var keptEdited: [String] = []
    public var skippedDeleted: [String] = []
    /// Records already there at this version (seeded on another peer and synced, or migrated
    /// from the legacy file under the same seed IDs): nothing to do for them.
    public var present: [String] = []
    /// Seed keys held by more than one live record (global IDs, per key): sync's fixes and
    /// `storekeep repair` merge them (never deleting one the user edited).
    public var duplicates: [[String]] = []
    /// The history transaction, when something was saved.
    public var sequence: Int64?
}
