import SyncStore

/// What one `storekeep archive` did (its `--json` document; fields are only ever added).
public struct ArchiveReport: Codable, Sendable {
    /// A peer that has not synced for longer than `--forget-after`.
    public struct SilentPeer: Codable, Sendable, Hashable {
        public var peer: String
        /// When it last synced (seconds since 1970), and how many days ago.
        public var lastSeen: Double
        public var days: Double
    }

    public var store: String
    public var container: String
    public var contentName: String
    public var modelHash: String
    public var dryRun: Bool
    /// The peers whose imports decide what may leave (every peer of the namespace not forgotten).
    public var registeredPeers: [String] = []
    /// Peers forgotten with `storekeep peers forget`.
    public var forgottenPeers: [String] = []
    /// Peers silent for longer than `--forget-after`.
    public var silentPeers: [SilentPeer] = []
    /// Per peer, the last transaction every registered peer has imported (the all-peer
    /// watermark): only logs up to it leave.
    public var watermark: [String: Int64] = [:]
    /// Per peer, the last transaction whose history left the store: up to the watermark, but never
    /// past a log that stays in the container (with `--older-than`, the logs too young to go).
    public var prunedThrough: [String: Int64] = [:]
    /// The archive written (or found from an earlier run), and what it holds.
    public var archive: String?
    public var archivedLogs = 0
    public var archivedBytes: Int64 = 0
    /// Whether the archive was read back and every entry's checksum matched.
    public var verified = false
    /// The baseline written beside the logs that remain (new peers start from it).
    public var baseline: String?
    /// Logs removed from the container, and history removed from the store.
    public var removedLogs = 0
    public var prunedTransactions = 0
    public var prunedChanges = 0
    /// Earlier archive baselines removed because the newest baseline holds everything they held
    /// (no peer starts from any but the newest).
    public var removedBaselines: [String] = []
    /// Why nothing was archived, when nothing was.
    public var notes: [String] = []
    public var seconds: Double = 0
}
