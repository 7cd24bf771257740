/// A mapping or step file a migration run applied, as the store's migration history keeps it
/// (`sk_migration_file`), so that `check` can tell when the file has changed since (Flyway's `validate`).
///
/// ```swift
/// let load = try store.beginBulkLoad(key: key, version: "2", description: "…", source: "old.store", checksum: step.checksum,
///                                    files: [MigrationFile(path: "/m/1-to-2.yaml", checksum: step.checksum)], author: "storekeep.migrate")
/// try store.migrationFiles(migration: load.run.id)   // [MigrationFile(path: "/m/1-to-2.yaml", …)]
/// ```
public struct MigrationFile: Hashable, Sendable, Codable {
    /// The file's absolute path when the run started.
    public var path: String
    /// SHA-256 of the file's bytes when the run started, 64 hex digits.
    public var checksum: String

    /// Creates an entry.
    public init(path: String, checksum: String) {
        self.path = path
        self.checksum = checksum
    }
}
