/// The outcome of checking one store, in the order of the monitoring convention's exit codes.
public enum CheckStatus: String, Codable, Sendable, Comparable, CaseIterable {
    /// No findings (exit 0).
    case ok
    /// Warnings only (exit 1).
    case warnings
    /// At least one violation (exit 2).
    case violations
    /// The store could not be checked: missing, not a store, of a newer format, unreadable (exit 3).
    case failed

    /// The monitoring-plugin exit code of this status: 0, 1, 2 or 3.
    public var exitCode: Int32 {
        switch self {
        case .ok: return 0
        case .warnings: return 1
        case .violations: return 2
        case .failed: return 3
        }
    }

    /// Orders by exit code, so that the worst of several stores is their `max()`.
    public static func < (lhs: CheckStatus, rhs: CheckStatus) -> Bool { lhs.exitCode < rhs.exitCode }
}
