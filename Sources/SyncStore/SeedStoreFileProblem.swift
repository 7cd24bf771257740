/// Why a seed store file just built cannot be put in place
/// (``SyncStore/sealSeedStoreFile(at:configuration:model:)``).
public enum SeedStoreFileProblem: Hashable, Sendable {
    /// SQLite's integrity check reported these lines.
    case integrity([String])
    /// The file has this entity table, which holds no entity of the seed configuration.
    case foreignTable(String)
}
