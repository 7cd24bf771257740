import LegacyFormats
import ObjectModel
import SyncStore

/// The records of exactly one entity of a Core Data store, taken through the steps to the target
/// version; positions are primary keys.
struct CoreDataChainStream: MigrationStream {
    let reader: CoreDataStoreReader
    let chain: StepChain
    let lookups: StepLookups
    /// The entity in the store.
    let sourceEntity: String
    /// The entity in the target version.
    let entity: String
    /// The store's model version.
    let model: ManagedModel

    /// The target entity's name (a step never merges two entities into one).
    var name: String { entity }

    func estimatedCount() throws -> Int? { reader.entityCounts[sourceEntity] ?? 0 }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        let joined = CoreDataEntityStream.joinedToManyNames(of: sourceEntity, in: model)
        try reader.forEachRecord(entity: sourceEntity, afterPrimaryKey: max(position, 0)) { record in
            if let problem = record.problem { return try body(.rejected(position: record.primaryKey, reason: problem)) }
            let item: MigrationItem
            switch chain.transform(CoreDataEntityStream.importRecord(record, joined: joined), lookups: lookups) {
            case .record(let transformed)?: item = .record(position: record.primaryKey, transformed)
            case .rejected(let reason)?: item = .rejected(position: record.primaryKey, reason: reason)
            case nil: return true
            }
            return try body(item)
        }
    }
}
