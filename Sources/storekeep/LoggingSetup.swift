import Logging

/// Sends every log message, from the CLI and from the libraries, to stderr at one level.
///
/// Stdout is reserved for command output (and, with `--json`, one JSON document), so no
/// handler here ever writes to it.
enum LoggingSetup {
    /// The label of the CLI's own logger.
    static let label = "storekeep"

    /// A stderr handler at `level`.
    static func makeHandler(label: String, level: Logger.Level) -> any LogHandler {
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }

    /// A logger writing to stderr at `level`, independent of the process-wide logging system.
    static func makeLogger(level: Logger.Level) -> Logger {
        Logger(label: label) { makeHandler(label: $0, level: level) }
    }

    /// Installs the stderr handler for every `Logger` created from now on, including those in
    /// the libraries. swift-log allows this once per process: only ``CommandLauncher`` calls it.
    static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { makeHandler(label: $0, level: level) }
    }
}
