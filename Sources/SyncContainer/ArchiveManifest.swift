import Foundation

/// The first entry of every log archive (`storekeep-archive.json`): what the archive holds, with
/// the SHA-256 of each entry, so that `archive verify` checks every byte and `archive list` reads
/// one entry.
public struct ArchiveManifest: Codable, Hashable, Sendable {
    /// One file in the archive.
    public struct Entry: Codable, Hashable, Sendable {
        /// Its path inside the archive, which is its path inside the namespace folder
        /// (`peers/<peer>/logs/<name>.sklog`, `baselines/<name>.skbase`).
        public var path: String
        /// `log` or `baseline`.
        public var kind: String
        /// The SHA-256 of its bytes, and their number.
        public var sha256: String
        public var bytes: Int64
        /// For a log: its peer and sequence range.
        public var peer: String?
        public var firstSequence: Int64?
        public var lastSequence: Int64?

        /// Creates an entry.
        public init(path: String, kind: String, sha256: String, bytes: Int64, peer: String? = nil, firstSequence: Int64? = nil, lastSequence: Int64? = nil) {
            self.path = path
            self.kind = kind
            self.sha256 = sha256
            self.bytes = bytes
            self.peer = peer
            self.firstSequence = firstSequence
            self.lastSequence = lastSequence
        }
    }

    /// The archive format (1).
    public var format: Int
    /// The namespace the entries come from.
    public var contentName: String
    public var modelHash: String
    /// The peer that archived, and when (seconds since 1970).
    public var by: String
    public var created: Double
    /// Per peer, the last transaction every registered peer had imported: nothing above it is in here.
    public var watermark: [String: Int64]
    /// The entries, in the order they follow the manifest.
    public var entries: [Entry]

    /// Creates a manifest.
    public init(format: Int, contentName: String, modelHash: String, by: String, created: Double, watermark: [String: Int64], entries: [Entry]) {
        self.format = format
        self.contentName = contentName
        self.modelHash = modelHash
        self.by = by
        self.created = created
        self.watermark = watermark
        self.entries = entries
    }

    /// The manifest entry's name.
    public static let entryName = "storekeep-archive.json"
    /// The current archive format.
    public static let currentFormat = 1
}
