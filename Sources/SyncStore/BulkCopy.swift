/// One batch of records that SQLite copies into the store from an attached database
/// (``BulkLoad/attachCopySource(at:)``), with one `INSERT … SELECT` instead of a statement per
/// record: `SELECT <expressions> FROM <source table> WHERE <filter>`.
///
/// ```swift
/// let copy = BulkCopy(entity: "Item", sourceTable: "ZITEM", expressions: expressions,
///                     filter: "Z_ENT = 1 AND Z_PK > ? AND Z_PK <= ?", arguments: [0, 10_000], rows: 10_000)
/// try load.importCopiedBatch(copy, checkpoint: checkpoint)
/// ```
public struct BulkCopy: Sendable {
    /// The exact entity of every copied record.
    public var entity: String
    /// The table of the attached database the rows come from (unqualified).
    public var sourceTable: String
    /// One SQL expression over the source table per column of the entity's ``BulkCopyLayout``, in its order.
    public var expressions: [String]
    /// The condition that selects the batch's rows, with `?` for ``arguments``.
    public var filter: String
    /// The integer arguments of ``filter``, in order.
    public var arguments: [Int64]
    /// How many rows the filter selects: the copy fails when SQLite copies another number.
    public var rows: Int
    /// The source file as the operator named it, for messages about it (the attached database may
    /// be a private copy of it).
    public var sourcePath: String

    /// Creates a batch.
    public init(entity: String, sourceTable: String, expressions: [String], filter: String, arguments: [Int64], rows: Int, sourcePath: String = "") {
        self.entity = entity
        self.sourcePath = sourcePath
        self.sourceTable = sourceTable
        self.expressions = expressions
        self.filter = filter
        self.arguments = arguments
        self.rows = rows
    }
}
