/// How bad a finding is: the monitoring convention's warning (exit 1) or violation (exit 2).
public enum CheckSeverity: String, Codable, Sendable, Comparable, CaseIterable {
    /// Something to look at; the store's content is sound (an orphaned file, a stale lock).
    case warning
    /// An invariant of the store is broken; the data needs attention or `repair`.
    case violation

    /// `warning` < `violation`.
    public static func < (lhs: CheckSeverity, rhs: CheckSeverity) -> Bool {
        lhs == .warning && rhs == .violation
    }
}
