import Foundation
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
    public init(path: String, model: String? = nil, modelVersion: String? = nil) throws {
        let given = try model.map { try ModelLoader.load(path: $0, version: modelVersion) }
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

    /// One stream per entity that can have records of its own, in model order.
    public var streams: [any MigrationStream] {
        let model = reader.model
        return model.entities.filter { !$0.isAbstract }.map { CoreDataEntityStream(reader: reader, entity: $0.name, model: model) }
    }
}

/// The records of exactly one entity of a Core Data store; positions are primary keys.
struct CoreDataEntityStream: MigrationStream {
    let reader: CoreDataStoreReader
    let entity: String
    let model: ManagedModel

    var name: String { entity }

    func estimatedCount() throws -> Int? { reader.entityCounts[entity] ?? 0 }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        // Only relationships kept in join tables are written from their owner's side; an ordered
        // to-many whose inverse is to-one comes from the children's to-one and order.
        let joined = Set(model.relationships(of: entity).filter { relationship in
            guard relationship.isToMany, !relationship.isTransient else { return false }
            let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
            return inverse == nil || inverse!.isToMany
        }.map(\.name))
        guard (reader.entityCounts[entity] ?? 0) > 0 else { return }
        try reader.forEachRecord(entity: entity, afterPrimaryKey: max(position, 0)) { record in
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
