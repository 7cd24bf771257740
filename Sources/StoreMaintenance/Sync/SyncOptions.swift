/// How `storekeep sync` runs.
public struct SyncOptions: Sendable {
    /// Say what would be exported and imported; take no lock, write nothing.
    public var dryRun: Bool
    /// The most changes one log file holds (whole transactions: a larger transaction gets a file of its own).
    public var changesPerLog: Int
    /// The most changes imported in one SQLite transaction (whole transactions).
    public var changesPerImportBatch: Int
    /// How long to wait for the store's lock when another process holds it.
    public var lockTimeout: Double
    /// For a store restored from a backup (its transactions are not the ones its peer ID
    /// published): the peer ID it continues under (`docs/container.md`, "Restored stores").
    public var newPeerID: String?

    /// Creates options.
    public init(dryRun: Bool = false, changesPerLog: Int = 50_000, changesPerImportBatch: Int = 20_000, lockTimeout: Double = 120) {
        self.dryRun = dryRun
        self.changesPerLog = max(1, changesPerLog)
        self.changesPerImportBatch = max(1, changesPerImportBatch)
        self.lockTimeout = lockTimeout
    }
}
