import Foundation
import GRDB
import ObjectModel

/// Seed stores (article 4): the read-only records of a seed configuration, kept in a store file of
/// their own beside the user's store (`docs/seeding.md`, "Seed stores").
///
/// The user's store has no table for a seed entity: its records live in `<store>.seed-<configuration>`,
/// built by `storekeep seed-store build`, opened read-only, never synced, and never written by a
/// save. User records point at seed records by global ID, in String attributes marked
/// `storekeep.seedReference`.
///
/// ```swift
/// let user = try SyncStore.open(at: "ratings.store")
/// let postcodes = try user.seedStore(for: "Postcodes")     // read-only
/// try postcodes.record(GlobalID(rating.values["postcode"]…))
/// ```
extension SyncStore {
    /// The `sk_metadata` key naming the seed configuration of a seed store.
    public static let seedConfigurationKey = "seedConfiguration"

    /// The seed store file of configuration `configuration` beside the store at `path`.
    public static func seedStorePath(of path: String, configuration: String) -> String {
        "\(path).seed-\(configuration)"
    }

    /// The seed store file of configuration `configuration` beside this store.
    public func seedStorePath(for configuration: String) -> String {
        Self.seedStorePath(of: path, configuration: configuration)
    }

    /// Whether this store is a seed store (its records are a seed configuration's, read-only).
    public var isSeedStore: Bool { metadata.seedConfiguration != nil }

    /// Opens the seed store of `configuration` beside this store, read-only, after checking that it
    /// is that configuration's seed store and that its seed entities are this model's.
    ///
    /// - Throws: ``StoreError`` `notFound` when it was never built (the hint names the command),
    ///   `modelMismatch` when it was built for another configuration or other seed entities, and
    ///   what ``open(at:expecting:readOnly:buildingPendingIndexes:)`` throws.
    public func seedStore(for configuration: String) throws -> SyncStore {
        let seedPath = seedStorePath(for: configuration)
        guard model.seedConfigurations.contains(where: { $0.name == configuration }) else {
            throw StoreError(.invalidRequest, path: path, message: "model \(model.versionName) has no seed configuration named '\(configuration)'")
        }
        guard FileManager.default.fileExists(atPath: seedPath) else {
            throw StoreError(.notFound, path: seedPath, message: "no seed store: the records of seed configuration \(configuration) are not there",
                             hint: "build it with `storekeep seed-store build \(path) --from SEEDSET`")
        }
        let seed = try Self.open(at: seedPath, readOnly: true)
        if let problem = Self.seedStoreMismatch(seed.metadata.seedConfiguration, model: seed.model, for: configuration, of: model) {
            throw StoreError(.modelMismatch, path: seedPath, message: problem,
                             hint: "build the seed store again for this store's model (`storekeep seed-store build \(path)`)")
        }
        return seed
    }

    /// Why a seed store (its configuration and model) cannot serve configuration `configuration`
    /// of `model`, or `nil` when it can: it must be that configuration's seed store, and hold the
    /// same seed entities with the same entity hashes (other entities may differ).
    public static func seedStoreMismatch(_ storeConfiguration: String?, model stored: ManagedModel, for configuration: String, of model: ManagedModel) -> String? {
        guard let storeConfiguration else { return "is not a seed store (it is a user's store)" }
        guard storeConfiguration == configuration else { return "is the seed store of configuration \(storeConfiguration), not \(configuration)" }
        let wanted = Set(model.seedEntities(of: configuration).map(\.name))
        let held = Set(stored.seedEntities(of: configuration).map(\.name))
        guard wanted == held else {
            return "holds the entities \(held.sorted().joined(separator: ", ")) of configuration \(configuration), not \(wanted.sorted().joined(separator: ", "))"
        }
        let wantedHashes = ModelVersionHash(model).entities, heldHashes = ModelVersionHash(stored).entities
        let differing = wanted.filter { wantedHashes[$0] != heldHashes[$0] }.sorted()
        guard differing.isEmpty else { return "was built for another version of the seed entities \(differing.joined(separator: ", "))" }
        return nil
    }

    /// What a seed store says about what it was built from: `sk_metadata` values by key
    /// (`seedSource`, `seedSet`, `seedVersion`, `seedChecksum`, `seedBuilt`); empty for a user's store.
    public func seedStoreFacts() throws -> [String: String] {
        guard isSeedStore else { return [:] }
        return try read("read the seed store's metadata") { db in
            var facts: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM sk_metadata WHERE key LIKE 'seed%'") {
                if let key = row.stored(at: 0, as: String.self), let value = row.stored(at: 1, as: String.self) { facts[key] = value }
            }
            return facts
        }
    }

    /// Records what a seed store was built from (`seed*` keys of `sk_metadata`); used by the builder
    /// before the store is put in place.
    public func recordSeedStoreFacts(_ facts: [String: String]) throws {
        guard isSeedStore, !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "is not a seed store open for building") }
        do {
            try database.write { db in
                for (key, value) in facts.sorted(by: { $0.key < $1.key }) where key.hasPrefix("seed") && key != Self.seedConfigurationKey {
                    try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                   arguments: [key, value])
                }
            }
        } catch {
            throw StoreError.wrapping(error, path: path, action: "record the seed store's source")
        }
    }
}
