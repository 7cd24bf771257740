/// How thoroughly ``StoreChecker`` checks.
public enum CheckDepth: String, Codable, Sendable {
    /// SQLite's `quick_check`, and external files checked for presence only (the default).
    case quick
    /// SQLite's `integrity_check` (also verifies every index entry), and every external file hashed.
    case full
}
