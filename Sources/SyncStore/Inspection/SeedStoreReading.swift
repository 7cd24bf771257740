/// What an inspection found of one seed configuration's store beside a user's store
/// (``StoreInspector/forEachSeedStore(of:model:limit:_:)``).
public enum SeedStoreReading: Hashable, Sendable {
    /// There is no seed store file.
    case missing(configuration: String, file: String)
    /// The file cannot be read as a SQLite database; `message` is SQLite's.
    case unreadable(configuration: String, file: String, message: String)
    /// The file is not that configuration's seed store for the user's model: `problem` says why,
    /// as a sentence after the file's name ("is not a storekeep store (it has no readable model)").
    case mismatched(configuration: String, file: String, problem: String)
    /// The seed store serves the configuration; user records whose seed references it does not
    /// hold are listed (at most the limit given) and counted (`total`), with the seed set version
    /// the store was built from when there are any.
    case checked(configuration: String, file: String, dangling: [DanglingSeedReference], total: Int, seedVersion: String?)
}
