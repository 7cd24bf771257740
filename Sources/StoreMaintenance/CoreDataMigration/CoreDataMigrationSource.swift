import Foundation
import GRDBSQLite
import LegacyFormats
import ObjectModel
import SyncStore

/// An Apple Core Data SQLite store as a migration source: one stream per entity, in primary-key order.
///
/// The target model is the store's own: the one given, else the one recovered from `Z_MODELCACHE`,
/// else one inferred from its tables (``modelNote`` says which).
public final class CoreDataMigrationSource: MigrationSource {
    /// The reader (on a private copy of the store; the source files are never written).
    public let reader: CoreDataStoreReader
    /// The source as given.
    public let location: String
    /// The store's UUID, size and first and last 64 KiB, with its `-wal`'s size.
    public let fingerprint: String

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
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        fingerprint = try SourceFingerprint.of(path: path, extra: "coredata \(reader.storeUUID) wal \(walSize)")
    }

    /// "Apple Core Data store".
    public var kindDescription: String { "Apple Core Data store" }
    /// The store's model.
    public var targetModel: ManagedModel { reader.model }
    /// Where the model came from, then what an inferred model leaves out, as clauses separated by "; ".
    public var modelNote: String? { ([reader.modelSentence] + reader.notes).joined(separator: "; ") }
    /// No mapping file.
    public var checksum: String { "-" }
    /// Nothing to check beyond what opening did.
    public func validate() throws {}

    /// The private copy of the store the reader reads: the target attaches it and copies rows
    /// from it with SQL (`CoreDataCopyPlan`).
    public var copySourcePath: String? { reader.snapshotPath }

    /// One stream per entity that can have records of its own, in model order; then, for each
    /// table holding rows that no record stands for (``CoreDataStoreReader/unreadRowCounts``), a
    /// stream that rejects each of them with its reason.
    public var streams: [any MigrationStream] {
        let model = reader.model
        let entities: [any MigrationStream] = model.entities.filter { !$0.isAbstract }.map { CoreDataEntityStream(reader: reader, entity: $0.name, model: model) }
        let unread: [any MigrationStream] = reader.unreadRowCounts.keys.sorted().map { CoreDataUnreadRowStream(reader: reader, table: $0) }
        return entities + unread
    }

    /// Per entity table, its rows (`COUNT(*)`, whatever they hold) and the streams that read them:
    /// those of the entities kept there, and the one of its rows of no entity.
    public func tallies() throws -> [SourceTally] {
        let streams = self.streams
        return try reader.entityTables.map { table in
            let readers = streams.filter { stream in
                if let unread = stream as? CoreDataUnreadRowStream { return unread.table == table }
                return reader.storage(of: stream.entity)?.table == table
            }
            return SourceTally(part: "table \(table)", count: try reader.rowCount(of: table), streams: readers.map(\.name))
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
    func forEach(after position: Int64, store: SyncStore, options: MigrationOptions, _ body: (MigrationItem) throws -> Bool) throws {
        guard (reader.entityCounts[entity] ?? 0) > 0 else { return }
        guard store.hasCopySource, let plan = CoreDataCopyPlan(entity: entity, reader: reader, store: store),
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
        // Only relationships kept in join tables are written from their owner's side; an ordered
        // to-many whose inverse is to-one comes from the children's to-one and order.
        let joined = Set(model.relationships(of: entity).filter { relationship in
            guard relationship.isToMany, !relationship.isTransient else { return false }
            let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
            return inverse?.isToMany ?? true
        }.map(\.name))
        guard (reader.entityCounts[entity] ?? 0) > 0 else { return }
        try reader.forEachRecord(entity: entity, afterPrimaryKey: max(position, 0)) { record in
            if let problem = record.problem { return try body(.rejected(position: record.primaryKey, reason: problem)) }
            // Empty relationship tables are passed on as they are: mapping an empty dictionary still
            // allocates a new one, twice per record of an entity without relationships.
            let item = ImportRecord(
                entity: record.entity, globalID: GlobalID(record.globalID), values: record.values,
                toOne: record.toOne.isEmpty ? [:] : record.toOne.mapValues(GlobalID.init), toOneOrder: record.toOneOrder,
                toMany: record.toMany.isEmpty ? [:] : record.toMany.filter { joined.contains($0.key) }.mapValues { $0.map(GlobalID.init) })
            return try body(.record(position: record.primaryKey, item))
        }
    }
}
