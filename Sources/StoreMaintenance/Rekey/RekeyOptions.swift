/// How `storekeep rekey` runs.
public struct RekeyOptions: Sendable {
    /// Say what would happen; write nothing.
    public var dryRun: Bool
    /// How long to wait for the store's lock.
    public var lockTimeout: Double
    /// The most changes one log file holds, in the sync that comes first (``SyncOptions/changesPerLog``).
    public var changesPerLog = 50_000

    /// Creates options.
    public init(dryRun: Bool = false, lockTimeout: Double = 120) {
        self.dryRun = dryRun
        self.lockTimeout = lockTimeout
    }
}
