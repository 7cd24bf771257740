import Foundation

/// The header of a baseline file (`docs/container.md`, "Baselines"): the snapshot it holds and what
/// it covers.
public struct BaselineHeader: Codable, Hashable, Sendable, FramedFile.Header {
    /// The baseline file format (1).
    public var format: Int
    /// The namespace it belongs to.
    public var contentName: String
    public var modelHash: String
    /// The peer whose store it was made from.
    public var peer: String
    /// Per peer, the last of its transactions the snapshot holds the effects of.
    public var vector: [String: Int64]
    /// The largest clock reading of the store it was made from.
    public var latestClock: Int64
    /// What the body holds.
    public var records: Int
    public var memberships: Int
    public var tombstones: Int
    /// Why it was made: `rekey` (the content of a new content name) or `archive` (logs moved out).
    public var reason: String
    /// `zstd` or `none`; the body's size as stored and once decompressed.
    public var compression: String
    public var bodyBytes: Int
    public var rawBytes: Int
    /// When it was made (seconds since 1970).
    public var created: Double
    /// The account the snapshot's data belongs to; absent for a store without an account, and in
    /// baselines written before the key existed (a reader then takes the making peer's manifest's account).
    public var account: String?

    /// For a snapshot baseline (format 2): the bytes of the SQLite database file at the start of
    /// its body, and the number of blob files after it; absent in format 1.
    public var snapshotBytes: Int64?
    public var blobFiles: Int?

    /// The baseline format whose body is the encoded snapshot (``BaselineEncoder``'s records).
    public static let currentFormat = 1
    /// The baseline format whose body is a copy of the store's database file and its blob files
    /// (``SnapshotBaseline``).
    public static let snapshotFormat = 2

    /// A header; the compression and sizes are filled in when the file is encoded.
    public init(contentName: String, modelHash: String, peer: String, vector: [String: Int64], latestClock: Int64,
                records: Int, memberships: Int, tombstones: Int, reason: String, created: Date = Date(), account: String? = nil) {
        format = Self.currentFormat
        self.contentName = contentName
        self.modelHash = modelHash
        self.peer = peer
        self.vector = vector
        self.latestClock = latestClock
        self.records = records
        self.memberships = memberships
        self.tombstones = tombstones
        self.reason = reason
        compression = "none"
        bodyBytes = 0
        rawBytes = 0
        self.created = created.timeIntervalSince1970
        self.account = account
    }

    /// The file name: the sequence numbers it covers summed (so a later baseline sorts after an
    /// earlier one of the same peers), then the peer that made it.
    public var fileName: String {
        let covered = vector.values.reduce(0, { $0 &+ $1 })
        let digits = String(covered)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "-\(peer).skbase"
    }
}
