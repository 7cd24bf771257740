/// One live record read back from a store in the form a migration writes it, with its row id.
///
/// ```swift
/// for exported in try store.exportRecords(of: "Speech", afterRowID: 0, limit: 500) {
///     exported.rowID            // stable while the store is not written: a resumable position
///     exported.record.seed      // seed mark, to-one targets and their order, join-kept to-manys
/// }
/// ```
public struct ExportedRecord: Hashable, Sendable {
    /// The record's row id in its entity table (never its identity: that is the global ID).
    public var rowID: Int64
    /// The record: exact entity, global ID, every persistent attribute (`.null` when empty, binary
    /// values in full), to-one targets with their order in an ordered inverse, the members of its
    /// to-many relationships kept in join tables (in their order), and its seed mark.
    public var record: ImportRecord

    /// Creates an exported record.
    public init(rowID: Int64, record: ImportRecord) {
        self.rowID = rowID
        self.record = record
    }
}
