import SyncStore

/// What one `storekeep seed-store build` did (its `--json` document; fields are only ever added).
public struct SeedStoreReport: Codable, Sendable {
    /// The user's store, the seed store beside it, and the seed configuration it holds.
    public var store: String
    public var seedStore: String
    public var configuration: String
    /// `seedSet`, `sqlite` (a seed store copied) or `coreData` (a Core Data store read), and the file built from.
    public var source: String
    public var sourcePath: String
    /// The seed set's name and version (for a copied seed store, the ones it was built from; for a
    /// Core Data store, its file name without `.sqlite`, and 1).
    public var seedSet: String
    public var version: Int
    /// What the installed seed store was, when there was one.
    public var previousSeedSet: String?
    public var previousVersion: Int?
    /// Whether nothing was written (`--dry-run`).
    public var dryRun: Bool
    /// Whether the installed seed store was already this one (same version and checksum): nothing was done.
    public var nothingToDo = false
    /// Whether a seed store was put in place (replacing the old one, when there was one).
    public var installed = false
    /// Where the seed store it replaced is kept (`<seed store>.previous`, one version back).
    public var previous: String?
    /// Records of each seed entity the new seed store holds.
    public var records: [String: Int] = [:]
    /// User records whose seed references the new seed store does not hold (after a build,
    /// `storekeep check` reports them as `seedStore.danglingReference`); at most 1,000 listed.
    public var danglingReferences: [DanglingSeedReference] = []
    /// How many there are in all.
    public var danglingReferenceCount = 0
}
