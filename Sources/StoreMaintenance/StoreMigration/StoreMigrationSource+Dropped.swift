import SyncStore

extension StoreMigrationSource {
    /// What the steps drop that holds values in the old store (see ``StepChain/dropped``): an
    /// attribute's non-empty values, a relationship's records with targets, an entity's records.
    public func droppedData() throws -> [DroppedData] {
        let counts = try store.liveRecordCounts()
        return try chain.dropped.compactMap { entry in
            var counted = entry
            if let property = entry.property {
                counted.values = (counts[entry.entity] ?? 0) > 0 ? try store.nonEmptyCount(of: property, entity: entry.entity) : 0
            } else {
                counted.values = counts[entry.entity] ?? 0
            }
            return counted.values > 0 ? counted : nil
        }
    }
}
