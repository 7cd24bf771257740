import ArgumentParser
import Logging

/// A log level as an operator names it on the command line, in the environment or in the
/// config file (`trace` … `critical`).
enum LogLevelOption: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Everything, including per-record detail.
    case trace
    /// Detail useful when investigating a problem.
    case debug
    /// Normal progress.
    case info
    /// Noteworthy events (the default).
    case notice
    /// Something unexpected that storekeep worked around.
    case warning
    /// A failure.
    case error
    /// A failure that stops everything.
    case critical

    /// Parses a level name, ignoring case.
    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The level names, for messages: `trace, debug, …, critical`.
    static var namesList: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The matching swift-log level.
    var level: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}
