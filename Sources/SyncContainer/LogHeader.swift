import Foundation

/// The header of a transaction log file (`docs/container.md`, "Log files"): what the file holds and
/// where it belongs, checked against its place in the container before its body is read.
public struct LogHeader: Codable, Hashable, Sendable, FramedFile.Header {
    /// The log file format (1).
    public var format: Int
    /// The content name the log was exported under.
    public var contentName: String
    /// The model version hash of the peer that wrote it.
    public var modelHash: String
    /// The peer whose transactions it holds.
    public var peer: String
    /// The sequence numbers of its first and last transaction.
    public var firstSequence: Int64
    public var lastSequence: Int64
    /// How many transactions and changes it holds.
    public var transactions: Int
    public var changes: Int
    /// The largest hybrid clock reading among its transactions.
    public var latestClock: Int64
    /// `zstd` or `none`.
    public var compression: String
    /// The size of the body as stored, and once decompressed.
    public var bodyBytes: Int
    public var rawBytes: Int
    /// When it was written (seconds since 1970).
    public var created: Double
    /// The account the transactions' data belongs to; absent for a store without an account, and
    /// in logs written before the key existed (a reader then takes the peer's manifest's account).
    public var account: String?

    /// The current log file format.
    public static let currentFormat = 1

    /// A header for a log of `peer`'s transactions `firstSequence` through `lastSequence`; the
    /// compression and sizes are filled in when the file is encoded (``LogFile/encode(header:body:)``).
    public init(contentName: String, modelHash: String, peer: String, firstSequence: Int64, lastSequence: Int64,
                transactions: Int, changes: Int, latestClock: Int64, created: Date = Date(), account: String? = nil) {
        format = Self.currentFormat
        self.contentName = contentName
        self.modelHash = modelHash
        self.peer = peer
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.transactions = transactions
        self.changes = changes
        self.latestClock = latestClock
        compression = "none"
        bodyBytes = 0
        rawBytes = 0
        self.created = created.timeIntervalSince1970
        self.account = account
    }
}
