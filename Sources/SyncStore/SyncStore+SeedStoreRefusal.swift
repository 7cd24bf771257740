extension SyncStore {
    /// Refuses `action` on a seed store: its records are read-only seed data that every peer builds
    /// beside its own store, so it is never exported, never the source of a baseline, never moved to
    /// another content name and belongs to no account (`docs/seeding.md`, "Seed stores").
    ///
    /// Every path that puts a store's content into a container, or changes what it syncs as, calls
    /// this first, so that a new command built on them inherits the refusal.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` naming the seed configuration.
    func refuseSeedStore(_ action: String) throws {
        guard let configuration = metadata.seedConfiguration else { return }
        throw StoreError(.invalidRequest, path: path,
                         message: "is the seed store of configuration \(configuration): read-only seed data is never synced, so storekeep does not \(action) for it",
                         hint: "give the user's store beside it; every peer builds its own seed store (`storekeep seed-store build`)")
    }
}
