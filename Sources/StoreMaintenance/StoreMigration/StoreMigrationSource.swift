import Foundation
import XcodeModel
import ObjectModel
import SyncStore

/// An older storekeep store (any earlier format, any earlier model version) as a migration source:
/// its records, carried through the steps to a later version of its model.
///
/// The store is opened read-only and never written. Steps are planned when the source is made, so
/// a step that cannot be inferred fails before anything is written.
///
/// ```swift
/// let source = try StoreMigrationSource(path: "v1.store", model: "Migrations/SpeechTimer/SpeechTimer.xcdatamodeld")
/// source.chain.steps.map(\.summary)   // ["SpeechTimer 1 → SpeechTimer 2 (inferred: …)"]
/// let report = try Migrator(source: source, target: "v2.store", options: MigrationOptions()).run()
/// ```
public final class StoreMigrationSource: MigrationSource {
    /// The old store, opened read-only.
    public let store: SyncStore
    /// The steps from the store's version to the target version.
    public let chain: StepChain
    /// The source as given.
    public let location: String
    /// The store's UUID, format, size, first and last 64 KiB, and its `-wal`'s size.
    public let fingerprint: String
    /// The old store's model version hash and those it was migrated from.
    public var sourceModelHashes: [String] { [store.metadata.modelHash] + ((try? store.modelLineage()) ?? []) }
    /// Records per read from the old store.
    public var pageSize = 500
    /// What the steps' key paths read from other records (empty for most chains).
    let lookups: StepLookups

    /// Opens the store read-only and plans the steps.
    ///
    /// - Parameters:
    ///   - path: the old store.
    ///   - model: the model bundle (`.xcdatamodeld`) holding the store's version and the target version.
    ///   - modelVersion: the target version (default: the bundle's current version).
    ///   - stepsFolder: a folder of step files to use instead of the bundle's own folder (`--steps`).
    /// - Throws: `StoreError`, `XcodeModelError`, `ModelLookupError`, ``MaintenanceError``, ``StepFileError``, ``StepInferenceError``.
    public convenience init(path: String, model: String, modelVersion: String? = nil, stepsFolder: String? = nil) throws {
        let bundle = try ModelLoader.loadBundle(path: model)
        try self.init(path: path, bundle: bundle, bundlePath: model, modelVersion: modelVersion, stepsFolder: stepsFolder)
    }

    /// Opens the store read-only and plans the steps with a bundle already read (or built in code).
    ///
    /// - Parameters:
    ///   - bundlePath: where step files are looked up (beside it, unless `stepsFolder` is given), and the path messages name.
    public init(path: String, bundle: ModelBundle, bundlePath: String, modelVersion: String? = nil, stepsFolder: String? = nil) throws {
        store = try SyncStore.open(at: path, readOnly: true)
        // Entities without records need no value for a new required attribute, and attributes no
        // record leaves empty may become required without a default, as in Core Data.
        let planned = try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: bundle, bundlePath: bundlePath,
                                            targetVersion: modelVersion, stepsFolder: stepsFolder, records: try Self.recordFacts(of: store))
        chain = planned
        let old = store
        lookups = try planned.buildLookups { body in
            for entity in old.model.entities where !entity.isAbstract {
                var after: Int64 = 0
                while true {
                    let page = try old.exportRecords(of: entity.name, afterRowID: after, limit: 500)
                    guard let last = page.last else { break }
                    for exported in page { try body(exported.record) }
                    after = last.rowID
                }
            }
        }
        location = path
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        fingerprint = try SourceFingerprint.of(
            path: path, extra: "storekeep \(store.metadata.storeUUID) format \(store.metadata.formatVersion) wal \(walSize)")
    }

    /// "storekeep store (SpeechTimer 1, format 2)".
    public var kindDescription: String {
        "storekeep store (\(store.model.versionName), format \(store.metadata.formatVersion))"
    }
    /// The target version.
    public var targetModel: ManagedModel { chain.target }
    /// The store's content name (a good default for the new store's).
    public var contentName: String { store.metadata.contentName }

    /// Which steps are inferred and which come from step files, with what they change.
    public var modelNote: String? {
        guard !chain.steps.isEmpty else { return "the store is already at \(chain.target.versionName): its records are copied unchanged" }
        return "steps: " + chain.steps.map(\.summary).joined(separator: "; ")
    }

    /// The checksum of the step files and mapping models applied ("-" when every step is inferred).
    public var checksum: String { chain.checksum }

    /// Nothing to check beyond what planning did.
    public func validate() throws {}

    /// One stream per concrete entity of the old store that has records and a target entity,
    /// in the target model's entity order; then, when the store holds rows of no entity with
    /// records of its own (a damaged store), one that rejects each of them with its reason.
    public var streams: [any MigrationStream] {
        let counts = (try? store.liveRecordCounts()) ?? [:]
        let order = Dictionary(uniqueKeysWithValues: chain.target.entities.enumerated().map { ($1.name, $0) })
        let entities: [any MigrationStream] = store.model.entities
            .filter { !$0.isAbstract && (counts[$0.name] ?? 0) > 0 }
            .compactMap { entity -> StoreEntityStream? in
                guard let target = chain.targetEntity(of: entity.name) else { return nil }
                return StoreEntityStream(store: store, chain: chain, lookups: lookups, sourceEntity: entity.name, entity: target,
                                         count: counts[entity.name] ?? 0, pageSize: pageSize)
            }
            .sorted { (order[$0.entity] ?? 0, $0.sourceEntity) < (order[$1.entity] ?? 0, $1.sourceEntity) }
        guard let unread = try? store.rowsOfNoEntity(), !unread.isEmpty else { return entities }
        return entities + [StoreUnreadRowStream(rows: unread.map(\.reason), entity: store.model.entities.first?.name ?? "")]
    }

    /// The old store's record rows (`COUNT(*)` of its tables), less those of the entities the
    /// target version removes (which are not carried over), read by all the streams together.
    public func tallies() throws -> [SourceTally] {
        let counts = try store.liveRecordCounts()
        let removed = store.model.entities.filter { !$0.isAbstract && chain.targetEntity(of: $0.name) == nil }
            .reduce(0) { $0 + (counts[$1.name] ?? 0) }
        return [SourceTally(part: "the records of \(location)", count: try store.recordRowCount() - removed, streams: streams.map(\.name))]
    }
}

/// The rows of an old store that are no record of an entity with records of its own (a damaged
/// store): each yielded as rejected with its reason. Positions are places in that list (1, 2, …).
struct StoreUnreadRowStream: MigrationStream {
    /// Why each row is no record, in the store's order.
    let rows: [String]
    let entity: String

    var name: String { "rows of no entity" }

    func estimatedCount() throws -> Int? { rows.count }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        for (index, reason) in rows.enumerated() where Int64(index + 1) > position {
            guard try body(.rejected(position: Int64(index + 1), reason: reason)) else { return }
        }
    }
}
