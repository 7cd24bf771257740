import Foundation
import ObjectModel
import SyncStore

/// What `storekeep info` reports about a store: its metadata, model, record counts and history size.
///
/// Field names are part of the JSON contract: fields are only ever added.
///
/// ```swift
/// let info = try StoreInfo(store: try SyncStore.open(at: path, readOnly: true))
/// info.entities["Speech"]   // live Speech records (sub-entities counted under their own names)
/// ```
public struct StoreInfo: Encodable, Sendable, Equatable {
    /// The model a store was made for.
    public struct Model: Encodable, Sendable, Equatable {
        /// The model's name.
        public var name: String
        /// The model version's name.
        public var version: String
        /// The model's own version identifier (may be empty).
        public var versionIdentifier: String
        /// The model version hash.
        public var hash: String
    }

    /// Counts of the store's history.
    public struct History: Encodable, Sendable, Equatable {
        /// Number of transactions.
        public var transactions: Int
        /// Number of changes.
        public var changes: Int
        /// The store's own peer's highest sequence number.
        public var localSequence: Int64
    }

    /// The store file.
    public var path: String
    /// The store's UUID.
    public var storeUUID: String
    /// The store format version.
    public var formatVersion: Int
    /// The sync namespace.
    public var contentName: String
    /// This replica's peer ID.
    public var peerID: String
    /// The account the data belongs to, when known.
    public var accountToken: String?
    /// Whether sync is switched on.
    public var syncEnabled: Bool
    /// When the store was created.
    public var createdAt: Date
    /// The model the store was made for.
    public var model: Model
    /// Live records per exact entity (every entity of the model, 0 included).
    public var entities: [String: Int]
    /// History counts.
    public var history: History
    /// Bytes used by the database files (main file, WAL and shared memory).
    public var databaseBytes: Int64
    /// One rekey of the store's content name, from its migration history.
    public struct Rekey: Codable, Sendable, Hashable {
        /// The content name left.
        public var from: String
        /// The content name moved to.
        public var to: String
        /// When.
        public var at: Date
        /// What happened (who rekeyed, which baseline).
        public var description: String
    }
    /// The store's rekeys, oldest first.
    public var rekeys: [Rekey]
    /// Where the store stands with sync: the last transaction it issued and exported, and per
    /// other peer the last imported.
    public var sync: SyncStatus
    /// A user's store: the seed stores of its model's seed configurations (empty for most models).
    public var seedStores: [SeedStoreSummary]
    /// A seed store: what it holds and was built from (`nil` for a user's store).
    public var seedStore: SeedStoreSummary?

    /// Gathers the information from an open store.
    ///
    /// - Throws: `StoreError` when the store cannot be read.
    public init(store: SyncStore) throws {
        let metadata = store.metadata
        path = store.path
        storeUUID = metadata.storeUUID
        formatVersion = metadata.formatVersion
        contentName = metadata.contentName
        peerID = metadata.peerID
        accountToken = metadata.accountToken
        createdAt = metadata.createdAt
        model = Model(name: metadata.modelName, version: metadata.modelVersion,
                      versionIdentifier: metadata.modelVersionIdentifier, hash: metadata.modelHash)
        entities = try store.liveRecordCounts()
        syncEnabled = try store.syncStatus().enabled
        let summary = try store.historySummary()
        history = History(transactions: summary.transactions, changes: summary.changes, localSequence: summary.localSequence)
        rekeys = try store.migrations().filter { $0.key.hasPrefix("rekey:") }.map { run in
            Rekey(from: run.source, to: String(run.version.dropFirst("rekey ".count)), at: run.started, description: run.description)
        }
        sync = try store.syncStatus()
        seedStore = store.isSeedStore ? SeedStoreSummary(seedStore: store) : nil
        seedStores = store.isSeedStore ? [] : store.model.seedConfigurations.map { SeedStoreSummary(configuration: $0.name, beside: store) }
        databaseBytes = ["", "-wal", "-shm"].reduce(0) { total, suffix in
            let size = (try? FileManager.default.attributesOfItem(atPath: store.path + suffix)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}
