import Foundation

/// What a store says about itself (its `sk_metadata` table).
public struct StoreMetadata: Hashable, Sendable, Codable {
    /// The store's own identity, fixed at creation.
    public var storeUUID: String
    /// The layout version of the file (see `docs/format.md`).
    public var formatVersion: Int
    /// The model's name.
    public var modelName: String
    /// The model version's name.
    public var modelVersion: String
    /// The model's own version identifier (may be empty).
    public var modelVersionIdentifier: String
    /// The model version hash the store was created for.
    public var modelHash: String
    /// The sync namespace.
    public var contentName: String
    /// This replica's peer ID.
    public var peerID: String
    /// The account the data belongs to, once known.
    public var accountToken: String?
    /// Whether sync is switched on.
    public var syncEnabled: Bool
    /// When the store was created.
    public var createdAt: Date
    /// For a seed store (`storekeep seed-store build`): the seed configuration whose read-only
    /// records it holds; `nil` for a user's store.
    public var seedConfiguration: String?
}
