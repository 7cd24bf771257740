import SyncStore

extension StoreSynchronizer {
    /// Refuses a seed store: its records are read-only seed data that every peer builds beside its
    /// own store (`storekeep seed-store build`), never synced.
    func refuseSeedStore(_ store: SyncStore) throws {
        guard let configuration = store.metadata.seedConfiguration else { return }
        throw MaintenanceError(path: path, problem: "is the seed store of configuration \(configuration): read-only seed data is never synced",
                               hint: "sync the user's store beside it; every peer builds its own seed store (`storekeep seed-store build`)",
                               failureKind: .badInput)
    }
}
