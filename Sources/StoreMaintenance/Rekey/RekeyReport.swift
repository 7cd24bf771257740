/// What one `storekeep rekey` did (its `--json` document; fields are only ever added).
public struct RekeyReport: Codable, Sendable {
    /// The store and the container.
    public var store: String
    public var container: String
    /// The content name left and the one moved to.
    public var from: String
    public var to: String
    /// Whether this was a dry run (nothing written).
    public var dryRun: Bool
    /// What the sync in the old content name exported and imported first.
    public var exportedTransactions = 0
    public var importedTransactions = 0
    /// The baseline of the new content name: its file, and how many records, memberships and tombstones it holds.
    public var baseline: String?
    public var baselineRecords = 0
    public var baselineMemberships = 0
    public var baselineTombstones = 0
    /// The redirect left in the old content name.
    public var redirect: String?
    /// Whether the store had already moved (a rekey run again after it was stopped).
    public var alreadyMoved = false
    /// Seconds taken.
    public var seconds: Double = 0
}
