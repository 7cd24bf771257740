/// A mapping or step file a migration run applied, with its checksum then
/// (``StoreInspection/migrationFiles()``), read leniently: a field that does not read is empty.
public struct InspectedMigrationFile: Hashable, Sendable {
    /// The run (0 when it does not read).
    public var migration: Int64
    /// The file's absolute path.
    public var path: String
    /// Its SHA-256 when the run started.
    public var checksum: String
}
