import SyncStore

/// The records of exactly one entity of an old store, through the step chain; positions are row ids.
struct StoreEntityStream: MigrationStream {
    let store: SyncStore
    let chain: StepChain
    let lookups: StepLookups
    /// The entity in the old store.
    let sourceEntity: String
    /// The entity in the target version.
    let entity: String
    let count: Int
    let pageSize: Int

    /// The target entity's name (one stream per target entity: a step never merges two entities).
    var name: String { entity }

    func estimatedCount() throws -> Int? { count }

    func forEach(after position: Int64, store target: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        var after = max(position, 0)
        while true {
            let page = try store.exportRecords(of: sourceEntity, afterRowID: after, limit: pageSize)
            guard let last = page.last else { return }
            for exported in page {
                let item: MigrationItem
                switch chain.transform(exported.record, lookups: lookups) {
                case .record(let record)?: item = .record(position: exported.rowID, record)
                case .rejected(let reason)?: item = .rejected(position: exported.rowID, reason: reason)
                case nil: continue
                }
                guard try body(item) else { return }
            }
            after = last.rowID
        }
    }
}
