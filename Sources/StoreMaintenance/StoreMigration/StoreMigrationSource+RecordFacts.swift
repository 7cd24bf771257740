import SyncStore

extension StoreMigrationSource {
    /// What the planning needs to know of the old store's records: the entities without live
    /// records, and the live records of an entity without a value for an attribute.
    static func recordFacts(of store: SyncStore) throws -> SourceRecordFacts {
        let counts = try store.liveRecordCounts()
        let empty = Set(store.model.entities.filter { !$0.isAbstract && (counts[$0.name] ?? 0) == 0 }.map(\.name))
        return SourceRecordFacts(emptyEntities: empty, recordCounts: counts) { entity, attribute in
            max(0, (counts[entity] ?? 0) - (try store.nonEmptyCount(of: attribute, entity: entity)))
        }
    }
}
