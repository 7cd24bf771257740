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
        try reader.forEachRecord(entity: sourceEntity, afterPrimaryKey: max(position, 0)) { record in
            if let problem = record.problem { return try body(.rejected(position: record.primaryKey, reason: problem)) }
            let item: MigrationItem
            // Every to-many the reader gives goes to the steps, ordered ones kept by a to-one inverse
            // included: a step that makes one of them many-to-many carries its order; the others
            // keep only the relationships the target stores with their records.
            switch chain.transform(CoreDataEntityStream.importRecord(record, joined: Set(record.toMany.keys)), lookups: lookups) {
            case .record(let transformed)?: item = .record(position: record.primaryKey, transformed)
            case .rejected(let reason)?: item = .rejected(position: record.primaryKey, reason: reason)
            case nil: return true
            }
            return try body(item)
        }
    }
}
