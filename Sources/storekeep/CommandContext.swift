import Logging

/// What a running command is given: resolved settings, a stderr logger and its output.
struct CommandContext: Sendable {
    /// The settings after flags, environment and config file.
    let settings: ResolvedSettings
    /// Logs to stderr at the resolved level; pass it on to library calls.
    let logger: Logger
    /// Where the command writes its one result.
    let output: CommandOutput

    /// Whether the command runs under `--json`.
    var json: Bool { settings.json }

    /// Creates the context for `settings`, writing to stdout and logging to stderr.
    init(settings: ResolvedSettings) {
        self.init(
            settings: settings,
            logger: LoggingSetup.makeLogger(level: settings.logLevel),
            output: CommandOutput(json: settings.json))
    }

    /// Creates a context with an explicit logger and output (for tests).
    init(settings: ResolvedSettings, logger: Logger, output: CommandOutput) {
        self.settings = settings
        self.logger = logger
        self.output = output
    }
}
