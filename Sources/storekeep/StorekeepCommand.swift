import ArgumentParser

/// A storekeep subcommand: it declares the shared options and does its work with a
/// ready ``CommandContext``.
///
/// ``CommandLauncher`` resolves the settings (flags, then environment, then config file),
/// sets up logging, calls ``run(context:)`` and turns whatever it throws into an exit status.
///
/// ```swift
/// struct InfoCommand: StorekeepCommand {
///     static let configuration = CommandConfiguration(commandName: "info", abstract: "…")
///     @OptionGroup var globals: GlobalOptions
///
///     func run(context: CommandContext) throws {
///         context.logger.debug("reading store")
///         try context.output.emit(report) { TextTable(…).render() }
///     }
/// }
/// ```
protocol StorekeepCommand: ParsableCommand {
    /// The options every command takes (`--json`, `--quiet`, `--verbose`, `--log-level`, `--config`).
    var globals: GlobalOptions { get }

    /// Does the command's work. Throw an `OperatorFacingError` for a failure the operator can act
    /// on, or ``CommandExit`` to end with a status of the command's own choosing.
    func run(context: CommandContext) throws
}

extension StorekeepCommand {
    /// Runs the command when it is invoked outside ``CommandLauncher`` (for example from a test
    /// that parses it directly): resolves the settings from the process environment and runs.
    mutating func run() throws {
        let settings = try ResolvedSettings(options: globals, environment: ProcessEnvironment.current)
        try run(context: CommandContext(settings: settings))
    }
}
