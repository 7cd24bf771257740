/// One run of the store's migration history, read leniently (``StoreInspection/migrationRuns()``):
/// a field that does not read is empty.
public struct InspectedMigrationRun: Hashable, Sendable {
    /// The run's ID (0 when it does not read).
    public var id: Int64
    /// Its description.
    public var description: String
    /// Its source, as given (`nil` when it does not read).
    public var source: String?
    /// When it started, seconds since 1970.
    public var started: Double?
    /// When it finished, seconds since 1970; `nil` while unfinished.
    public var finished: Double?
    /// Whether it succeeded; `nil` while unfinished.
    public var success: Bool?
}
