import Foundation

/// What one peer publishes about itself in a namespace (`peers/<peer>/manifest.json`): written only
/// by that peer, replaced whole at the end of every sync.
public struct PeerManifest: Codable, Hashable, Sendable {
    /// The manifest format (1).
    public var format: Int
    /// The peer.
    public var peer: String
    /// The namespace: content name and model version hash.
    public var contentName: String
    public var modelHash: String
    /// The model version's name (for messages such as "peer X is on version 3").
    public var modelVersion: String
    /// The peer's store format.
    public var storeFormat: Int
    /// The last of its own transactions published in this namespace.
    public var exported: Int64
    /// Per other peer, the last of its transactions imported.
    public var imported: [String: Int64]
    /// Whether sync is switched on for the peer (a peer with sync off still counts for archiving:
    /// nothing it has not imported is removed).
    public var syncEnabled: Bool
    /// When the peer last synced (seconds since 1970).
    public var lastSeen: Double
    /// The account the peer's data belongs to, when known.
    public var account: String?
    /// The model version hashes the peer's content was migrated from (absent when none): a peer
    /// of one of them is on an older model version than this one.
    public var migratedFrom: [String]?

    /// The current manifest format.
    public static let currentFormat = 1

    /// Creates a manifest.
    public init(peer: String, contentName: String, modelHash: String, modelVersion: String, storeFormat: Int,
                exported: Int64, imported: [String: Int64], syncEnabled: Bool, lastSeen: Date, account: String?, migratedFrom: [String]? = nil) {
        format = Self.currentFormat
        self.peer = peer
        self.contentName = contentName
        self.modelHash = modelHash
        self.modelVersion = modelVersion
        self.storeFormat = storeFormat
        self.exported = exported
        self.imported = imported
        self.syncEnabled = syncEnabled
        self.lastSeen = lastSeen.timeIntervalSince1970
        self.account = account
        self.migratedFrom = migratedFrom
    }
}
