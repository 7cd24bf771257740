import Foundation
import GRDBSQLite
import LegacyFormats
import XcodeModel
import ObjectModel
import SyncStore

/// An Apple Core Data SQLite store as a migration source: one stream per entity, in primary-key order.
///
/// Without a model bundle, the target model is the store's own: the one given, else the one
/// recovered from `Z_MODELCACHE`, else one inferred from its tables (``modelNote`` says which).
/// With the app's bundle, the store is read with the version it was made with (found by Core
/// Data's version hashes, its model cache or its tables) and its records go through the steps to
/// the target version (``chain``), planned when the source is made.
///
/// ```swift
/// let source = try CoreDataMigrationSource(path: "User.sqlite", bundlePath: "App.xcdatamodeld")
/// source.match?.sentence   // "version 'App 2' found by Core Data's entity version hashes (4 of 4 entities)"
/// source.chain?.steps.map(\.summary)   // ["App 2 → App 4 (inferred: …)"]
/// ```
public final class CoreDataMigrationSource: MigrationSource {
    /// The reader (on a private copy of the store; the source files are never written).
    public let reader: CoreDataStoreReader
    /// The source as given.
    public let location: String
    /// The store's UUID, size and first and last 64 KiB, with its `-wal`'s size.
    public let fingerprint: String
    /// The bundle version the store was made with and how it was found (`nil` without a bundle).
    public let match: CoreDataVersionMatch?
    /// The steps from the store's version to the target version (`nil` without a bundle; no steps
    /// when the store is at the target version).
    public let chain: StepChain?
    /// What the steps' key paths read from other records (empty for most chains).
    let lookups: StepLookups

    /// Opens the store.
    ///
    /// - Parameters:
    ///   - path: the `.sqlite` file (its `-wal` is read with it).
    ///   - model: a model file to read the store with, instead of its own.
    ///   - modelVersion: the version of `model` to use (default: its current version).
    public convenience init(path: String, model: String? = nil, modelVersion: String? = nil) throws {
        try self.init(path: path, managedModel: try model.map { try ModelLoader.load(path: $0, version: modelVersion) })
    }

    /// Opens the store with a model already loaded (`nil`: the store's own, as above).
    public init(path: String, managedModel given: ManagedModel?) throws {
        reader = try CoreDataStoreReader.open(at: URL(fileURLWithPath: path), model: given)
        location = path
        match = nil
        chain = nil
        lookups = StepLookups()
        fingerprint = try Self.fingerprint(path: path, reader: reader)
    }

    /// Opens the store with the version of the bundle at `bundlePath` it was made with, and plans
    /// the steps to `targetVersion` (default: the bundle's current version).
    ///
    /// - Parameters:
    ///   - versionOverride: the store's version by name, instead of finding it (`--model-version`).
    ///   - stepsFolder: a folder of step files to use instead of the bundle's own folder (`--steps`).
    /// - Throws: `CoreDataStoreError` (no version fits, several do, or the store cannot be read),
    ///   `XcodeModelError`, `ModelLookupError`, ``StepFileError``, ``StepInferenceError``, `XcodeMappingError`,
    ///   ``MaintenanceError``.
    public convenience init(path: String, bundlePath: String, versionOverride: String? = nil, targetVersion: String? = nil,
                            stepsFolder: String? = nil) throws {
        try self.init(path: path, bundle: try ModelLoader.loadBundle(path: bundlePath), bundlePath: bundlePath,
                      versionOverride: versionOverride, targetVersion: targetVersion, stepsFolder: stepsFolder)
    }

    /// As ``init(path:bundlePath:versionOverride:targetVersion:stepsFolder:)``, with a bundle already read.
    public init(path: String, bundle: ModelBundle, bundlePath: String, versionOverride: String?, targetVersion: String?,
                stepsFolder: String? = nil) throws {
        let target = try targetVersion.map { try bundle.version(named: $0) } ?? bundle.current
        let opened = try CoreDataStoreReader.open(at: URL(fileURLWithPath: path), bundle: bundle, versionOverride: versionOverride,
                                                  preferredVersion: target.versionName)
        reader = opened.reader
        match = opened.match
        location = path
        // Entities without records need no value for a new required attribute, and attributes no
        // record leaves empty may become required without a default, as in Core Data.
        let planned = try StepPlanner.chain(from: opened.reader.model, bundle: bundle, bundlePath: bundlePath, targetVersion: target.versionName,
                                            stepsFolder: stepsFolder, records: Self.recordFacts(of: opened.reader))
        chain = planned
        let reader = opened.reader
        lookups = try planned.buildLookups { body in
            for entity in reader.model.entities where !entity.isAbstract && (reader.entityCounts[entity.name] ?? 0) > 0 {
                let joined = CoreDataEntityStream.joinedToManyNames(of: entity.name, in: reader.model)
                try reader.forEachRecord(entity: entity.name, afterPrimaryKey: 0) { record in
                    // A record that cannot be read exactly is rejected: no other record reads through it.
                    if record.problem == nil { try body(CoreDataEntityStream.importRecord(record, joined: joined)) }
                    return true
                }
            }
        }
        // The version the records are read as is part of what the migration is: another one is another migration.
        fingerprint = try Self.fingerprint(path: path, reader: opened.reader, readAs: opened.match.version.versionName)
    }

    private static func fingerprint(path: String, reader: CoreDataStoreReader, readAs version: String? = nil) throws -> String {
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        return try SourceFingerprint.of(path: path, extra: "coredata \(reader.storeUUID) wal \(walSize)" + (version.map { " read as \($0)" } ?? ""))
    }

    /// "Apple Core Data store", with the version found in a bundle.
    public var kindDescription: String {
        guard let match else { return "Apple Core Data store" }
        return "Apple Core Data store (\(match.version.versionName), found by \(match.method.words))"
    }
    /// The store's model, or the target version of the bundle.
    public var targetModel: ManagedModel { chain?.target ?? reader.model }
    /// Where the model came from (or how the store's version was found), the steps to the target,
    /// then what an inferred model leaves out, as clauses separated by "; ".
    public var modelNote: String? {
        var clauses = [reader.modelSentence]
        if let chain {
            clauses.append(chain.steps.isEmpty ? "the store is at the target version \(chain.target.versionName): its records are copied unchanged"
                           : "steps: " + chain.steps.map(\.summary).joined(separator: "; "))
        }
        return (clauses + reader.notes).joined(separator: "; ")
    }
    /// The checksum of the step files and mapping models applied ("-" when none).
    public var checksum: String { chain?.checksum ?? "-" }
    /// Nothing to check beyond what opening did.
    public func validate() throws {}

    /// The private copy of the store the reader reads: the target attaches it and copies rows
    /// from it with SQL (`CoreDataCopyPlan`).
    public var copySourcePath: String? { reader.snapshotPath }

    /// One stream per entity that can have records of its own, in model order; through the steps,
    /// one per entity with records that the target version keeps, whose records are transformed
    /// one by one unless they go through every step unchanged. Then, for each table holding rows
    /// that no record stands for (``CoreDataStoreReader/unreadRowCounts``), a stream that rejects
    /// each of them with its reason.
    public var streams: [any MigrationStream] {
        let model = reader.model
        let concrete = model.entities.filter { !$0.isAbstract }
        let unread: [any MigrationStream] = reader.unreadRowCounts.keys.sorted().map { CoreDataUnreadRowStream(reader: reader, table: $0) }
        guard let chain, !chain.steps.isEmpty else {
            return concrete.map { CoreDataEntityStream(reader: reader, entity: $0.name, model: model) } + unread
        }
        let entities = concrete.compactMap { entity -> (any MigrationStream)? in
            guard (reader.entityCounts[entity.name] ?? 0) > 0, let target = chain.targetEntity(of: entity.name) else { return nil }
            if chain.passesUnchanged(entity.name) { return CoreDataEntityStream(reader: reader, entity: entity.name, model: model) }
            return CoreDataChainStream(reader: reader, chain: chain, lookups: lookups, sourceEntity: entity.name, entity: target, model: model)
        }
        return entities + unread
    }

    /// Per entity table, its rows (`COUNT(*)`, whatever they hold) less those of the entities the
    /// target version removes (which are not carried over), and the streams that read them: those
    /// of the entities kept there, and the one of its rows of no entity.
    public func tallies() throws -> [SourceTally] {
        let streams = self.streams
        let removed = reader.model.entities.filter { entity in
            guard !entity.isAbstract, let chain, !chain.steps.isEmpty else { return false }
            return chain.targetEntity(of: entity.name) == nil
        }
        return try reader.entityTables.map { table in
            let readers = streams.filter { stream in
                if let unread = stream as? CoreDataUnreadRowStream { return unread.table == table }
                let entity = (stream as? CoreDataChainStream)?.sourceEntity ?? stream.entity
                return reader.storage(of: entity)?.table == table
            }
            let notCarried = try removed.filter { reader.storage(of: $0.name)?.table == table }
                .reduce(0) { $0 + (try reader.recordRowCount(of: $1.name)) }
            return SourceTally(part: "table \(table)", count: try reader.rowCount(of: table) - notCarried, streams: readers.map(\.name))
        }
    }
}

extension CoreDataVersionMatch.Method {
    /// A few words for the method: "version hashes", "Z_MODELCACHE", "tables", "--model-version".
    var words: String {
        switch self {
        case .override: return "--model-version"
        case .versionHashes: return "version hashes"
        case .modelCache: return "Z_MODELCACHE"
        case .tables: return "tables and columns"
        }
    }
}

/// The records of exactly one entity of a Core Data store; positions are primary keys.
struct CoreDataEntityStream: MigrationStream {
    let reader: CoreDataStoreReader
    let entity: String
    let model: ManagedModel

    var name: String { entity }

    func estimatedCount() throws -> Int? { reader.entityCounts[entity] ?? 0 }

    /// Yields batches SQLite copies by itself (``CoreDataCopyPlan``) while the rows allow it, and
    /// records one by one for a window of ``MigrationOptions/batchSize`` rows after a row that does
    /// not; records one by one throughout when the entity cannot be copied or the store has no
    /// copy source attached.
    func forEach(after position: Int64, into load: BulkLoad, options: MigrationOptions, _ body: (MigrationItem) throws -> Bool) throws {
        guard (reader.entityCounts[entity] ?? 0) > 0 else { return }
        let store = load.store
        guard load.hasCopySource, let plan = CoreDataCopyPlan(entity: entity, reader: reader, store: store),
              let digester = BulkCopyDigester(store: store, entity: entity) else {
            return try forEach(after: position, store: store, body)
        }
        let limit = max(1, options.copyBatchSize)
        let window = max(1, options.batchSize)
        let batchBytes = options.batchBytes
        var after = max(position, 0)
        while true {
            var sum = RecordDigestSum()
            var rows = 0
            var bytes = 0
            var last = after
            var blocked = false
            var read = 0
            try reader.forEachRow(sql: plan.readSQL, arguments: [after, Int64(limit)]) { row in
                read += 1
                guard let size = plan.digest(row: row, into: digester, sum: &sum) else {
                    blocked = true
                    return false
                }
                rows += 1
                bytes += size
                last = sqlite3_column_int64(row, 0)
                return bytes < batchBytes
            }
            if rows > 0 {
                guard try body(.copied(position: last, plan.copy(after: after, through: last, rows: rows), digest: sum)) else { return }
                after = last
            }
            if blocked {
                // The next row needs converting (or rejecting) record by record: the next window goes that way.
                var handled = 0
                var keepGoing = true
                try forEach(after: after, store: store) { item in
                    switch item {
                    case .record(let key, _), .rejected(let key, _): after = key
                    case .copied(let key, _, _): after = key
                    }
                    keepGoing = try body(item)
                    handled += 1
                    return keepGoing && handled < window
                }
                guard keepGoing, handled == window else { return }
            } else if read < limit, bytes < batchBytes {
                return
            }
        }
    }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        let joined = Self.joinedToManyNames(of: entity, in: model)
        guard (reader.entityCounts[entity] ?? 0) > 0 else { return }
        try reader.forEachRecord(entity: entity, afterPrimaryKey: max(position, 0)) { record in
            if let problem = record.problem { return try body(.rejected(position: record.primaryKey, reason: problem)) }
            return try body(.record(position: record.primaryKey, Self.importRecord(record, joined: joined)))
        }
    }

    /// The to-many relationships of `entity` written from its own side: only those kept in join
    /// tables; an ordered to-many whose inverse is to-one comes from the children's to-one and order.
    static func joinedToManyNames(of entity: String, in model: ManagedModel) -> Set<String> {
        Set(model.relationships(of: entity).filter { relationship in
            guard relationship.isToMany, !relationship.isTransient else { return false }
            let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
            return inverse.map(\.isToMany) ?? true
        }.map(\.name))
    }

    /// A Core Data record as a record to import.
    static func importRecord(_ record: CoreDataRecord, joined: Set<String>) -> ImportRecord {
        // Empty relationship tables are passed on as they are: mapping an empty dictionary still
        // allocates a new one, twice per record of an entity without relationships.
        ImportRecord(
            entity: record.entity, globalID: GlobalID(record.globalID), values: record.values,
            toOne: record.toOne.isEmpty ? [:] : record.toOne.mapValues(GlobalID.init), toOneOrder: record.toOneOrder,
            toMany: record.toMany.isEmpty ? [:] : record.toMany.filter { joined.contains($0.key) }.mapValues { $0.map(GlobalID.init) })
    }
}
