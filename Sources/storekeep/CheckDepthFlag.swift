import ArgumentParser
import StoreMaintenance

/// `--quick` or `--full`: how deep `check` reads. swift-argument-parser refuses both together (exit 64).
enum CheckDepthFlag: String, EnumerableFlag {
    /// SQLite's quick_check; external files checked for presence only (the default).
    case quick
    /// SQLite's integrity_check (every index entry); every external file hashed.
    case full

    /// The engine's depth.
    var depth: CheckDepth {
        switch self {
        case .quick: .quick
        case .full: .full
        }
    }

    /// The help of each flag.
    static func help(for value: CheckDepthFlag) -> ArgumentHelp? {
        switch value {
        case .quick: "SQLite's quick_check; external files checked for presence only (default)."
        case .full: "SQLite's integrity_check (every index entry); every external file hashed."
        }
    }
}
