/// Changes of a transaction the history does not have (``StoreInspection/orphanedChanges()``,
/// ``StoreInspection/orphanedInsertRuns()``): they cannot be exported.
public struct OrphanedChanges: Hashable, Sendable {
    /// The transaction they name.
    public var transaction: Int64
    /// How many changes (or, for insert runs, how many records the runs stand for).
    public var count: Int
}
