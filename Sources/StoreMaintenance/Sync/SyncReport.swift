import SyncStore

/// What one `storekeep sync` did (its `--json` document; fields are only ever added).
public struct SyncReport: Codable, Sendable {
    /// The store and the container.
    public var store: String
    public var container: String
    /// The namespace: content name and model version hash.
    public var contentName: String
    public var modelHash: String
    /// The store's peer ID.
    public var peer: String
    /// Whether this was a dry run (nothing written).
    public var dryRun: Bool
    /// Whether sync is switched on for the store (`false`: nothing was exported or imported).
    public var syncEnabled: Bool
    /// Transactions and changes exported, and the log files written.
    public var exportedTransactions = 0
    public var exportedChanges = 0
    public var logsWritten: [String] = []
    /// This peer's own logs that another peer still needs: read whole to check them, and found
    /// unchanged since an earlier run read them whole (not read again).
    public var ownLogsRead = 0
    public var ownLogsUnchanged = 0
    /// Baselines applied (a new peer's start, or a peer behind a rekey or an archive).
    public var baselinesApplied: [String] = []
    /// Baselines this run wrote (after an account change that kept the local data).
    public var baselinesPublished: [String] = []
    /// When the store's content name was rekeyed: the name it followed the redirect from.
    public var followedRedirectFrom: String?
    /// Per peer: transactions and changes imported.
    public var importedTransactions: [String: Int] = [:]
    public var importedChanges: [String: Int] = [:]
    /// Property values set here that an imported change replaced, and imported values that lost to a later one here.
    public var conflictsWon = 0
    public var conflictsLost = 0
    /// Imported changes to records deleted here (a delete wins).
    public var changesToDeletedRecords = 0
    /// Imported changes that could not be applied, with why.
    public var skippedChanges: [String] = []
    /// The fixes made after the import (`repair`'s rules), saved as one transaction by `storekeep.import`.
    public var fixes: [String] = []
    /// Where the store stands afterwards.
    public var exportedThrough: Int64 = 0
    public var watermarks: [String: Int64] = [:]
    /// What could not be used, and what the operator should know.
    public var findings: [SyncFinding] = []
    /// Seconds taken.
    public var seconds: Double = 0

    /// Whether anything was left out because of a damaged, foreign or missing log.
    public var hasErrors: Bool { findings.contains(where: \.isError) }
}
