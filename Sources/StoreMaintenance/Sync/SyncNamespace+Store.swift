import SyncContainer
import SyncStore

extension SyncNamespace {
    /// The namespace a store syncs through in `container`: its content name (or `contentName`, for
    /// a rekey's new one) and its model hash.
    ///
    /// Every command that reads or writes a store's place in a container (`sync`, `rekey`,
    /// `archive`, `peers`) gets its namespace here, so a seed store is refused in one place, before
    /// anything is written: its records are read-only seed data that every peer builds beside its
    /// own store, never synced (`docs/seeding.md`, "Seed stores").
    ///
    /// - Parameters:
    ///   - path: the store's path, as the operator gave it (named in the refusal).
    /// - Throws: ``MaintenanceError`` `badInput` for a seed store.
    static func of(_ store: SyncStore, at path: String, in container: String, contentName: String? = nil) throws -> SyncNamespace {
        if let configuration = store.metadata.seedConfiguration {
            throw MaintenanceError(path: path, problem: "is the seed store of configuration \(configuration): read-only seed data is never synced, and has no place in a container",
                                   hint: "give the user's store beside it; every peer builds its own seed store (`storekeep seed-store build`)",
                                   failureKind: .badInput)
        }
        return SyncNamespace(container: container, contentName: contentName ?? store.metadata.contentName, modelHash: store.metadata.modelHash)
    }
}
