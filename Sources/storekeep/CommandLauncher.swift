import ArgumentParser
import Foundation
import SyncStore

/// Parses the command line, runs the command, and exits with the documented status.
///
/// This replaces ArgumentParser's `main()`, which exits with status 1 for any error that is
/// not its own. The order is: parse (usage errors exit 64), resolve settings (configuration
/// errors exit 78), install stderr logging, run, then map what the command threw:
/// ``CommandExit`` → its status, `OperatorFacingError` → its kind's status, anything else → 70.
struct CommandLauncher {
    /// The root command type.
    let root: any ParsableCommand.Type
    /// The arguments after the program name.
    let arguments: [String]
    /// The environment variables.
    let environment: ProcessEnvironment

    /// Creates a launcher for the process's own arguments and environment.
    init(
        root: any ParsableCommand.Type,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: ProcessEnvironment = .current
    ) {
        self.root = root
        self.arguments = arguments
        self.environment = environment
    }

    /// Runs the command line and exits; never returns.
    func launch() -> Never {
        SyncStore.prepareSQLite()
        let parsed: any ParsableCommand
        do {
            parsed = try root.parseAsRoot(arguments)
        } catch {
            let json = jsonFlagInArguments || ResolvedSettings.jsonRequested(options: nil, environment: environment)
            finish(with: unknownCommand ?? error, json: json)
        }

        guard let command = parsed as? any StorekeepCommand else {
            // Help, a command group without a subcommand, or a command that declares no shared
            // options: ArgumentParser's own behaviour, with errors still mapped below.
            LoggingSetup.bootstrap(level: ResolvedSettings.defaultLogLevel)
            var builtIn = parsed
            do {
                try builtIn.run()
            } catch {
                finish(with: error, json: false)
            }
            exit(0)
        }

        let settings: ResolvedSettings
        do {
            settings = try ResolvedSettings(options: command.globals, environment: environment)
        } catch {
            finish(with: error, json: ResolvedSettings.jsonRequested(options: command.globals, environment: environment))
        }
        LoggingSetup.bootstrap(level: settings.logLevel)

        do {
            try command.run(context: CommandContext(settings: settings))
        } catch {
            finish(with: error, json: settings.json)
        }
        exit(0)
    }

    /// The first argument, when it names no command (ArgumentParser would report whatever option
    /// follows it instead, such as `--json`).
    private var unknownCommand: CommandUsageError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = root.configuration.subcommands.map { $0.configuration.commandName ?? $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        return CommandUsageError("unknown command '\(first)'", hint: "commands: \(names.joined(separator: ", ")); run 'storekeep help' for usage")
    }

    /// Whether `--json` appears before any `--` terminator; used when parsing itself failed.
    private var jsonFlagInArguments: Bool {
        let options = arguments.prefix { $0 != "--" }
        if let last = options.last(where: { $0 == "--json" || $0 == "--no-json" }) {
            return last == "--json"
        }
        return false
    }

    /// Reports `error` and exits with its status.
    private func finish(with error: any Error, json: Bool) -> Never {
        if let request = error as? CommandExit {
            if let message = request.message { StandardStream.error.write(message) }
            exit(request.status)
        }
        if let code = error as? ExitCode {
            exit(code.rawValue)
        }
        if root.exitCode(for: error) == .success {
            // --help, --version, or `storekeep` alone: ArgumentParser's text on stdout.
            StandardStream.output.write(root.fullMessage(for: error))
            exit(0)
        }
        let report = FailureReport(error: error, root: root)
        StandardStream.error.write(report.text)
        if json {
            let document = (try? JSONOutput.render(report.document)) ?? #"{"error":{"kind":"internalFailure"}}"#
            StandardStream.output.write(document)
        }
        exit(report.status)
    }
}
