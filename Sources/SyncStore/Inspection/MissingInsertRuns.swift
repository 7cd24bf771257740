/// Records of one entity table that name an insert run the history does not have
/// (``StoreInspection/missingInsertRuns(in:)``): their insert is lost from the history.
public struct MissingInsertRuns: Hashable, Sendable {
    /// The entity table.
    public var table: String
    /// How many records.
    public var count: Int
}
