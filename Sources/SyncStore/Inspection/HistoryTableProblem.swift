/// Why a store's history cannot be inspected (``StoreInspection/historyTableProblem()``).
public enum HistoryTableProblem: Hashable, Sendable {
    /// One of the history's tables is missing; `tables` names them all.
    case incomplete(tables: [String])
    /// The store's format records bulk imports as insert runs, but their table is missing.
    case insertRunsMissing(table: String)
}
