import Logging

/// The settings a command runs with, after combining flags, then `STOREKEEP_*` environment
/// variables, then the config file.
///
/// ```swift
/// let settings = try ResolvedSettings(options: globals, environment: .current)
/// if settings.json { … }
/// ```
struct ResolvedSettings: Sendable {
    /// Whether stdout carries one JSON document and nothing else.
    let json: Bool
    /// The lowest level logged on stderr.
    let logLevel: Logger.Level
    /// The config file path, if one was given with `--config` or `STOREKEEP_CONFIG`.
    let configFilePath: String?
    /// The environment and config file, for settings that commands add.
    let sources: SettingsSources

    /// Whether only errors are logged (`--quiet` or an equivalent level); commands also use it to
    /// leave out progress output.
    var quiet: Bool { logLevel >= .error }

    /// The level used when no flag, variable or config key says otherwise.
    static let defaultLogLevel = Logger.Level.notice

    /// Resolves the settings.
    ///
    /// - Throws: ``ConfigurationError`` for a missing or malformed config file, or an invalid value
    ///   in the environment or the file.
    init(options: GlobalOptions, environment: ProcessEnvironment) throws {
        configFilePath = options.config ?? environment[SettingKey.config.environmentVariable]
        let configFile = try configFilePath.map { try ConfigFile.load(path: $0) }
        sources = SettingsSources(environment: environment, configFile: configFile)

        if let flag = options.json {
            json = flag
        } else {
            json = try sources.bool(for: .json) ?? false
        }

        if let level = Self.flagLevel(options) {
            logLevel = level
        } else {
            var found: Logger.Level?
            for layer in sources.layers where found == nil {
                found = try Self.level(in: layer)
            }
            logLevel = found ?? Self.defaultLogLevel
        }
    }

    /// Whether `--json` is in effect as far as flags and the environment tell, without reading
    /// the config file; used to shape the error report when resolution itself fails.
    static func jsonRequested(options: GlobalOptions?, environment: ProcessEnvironment) -> Bool {
        if let flag = options?.json { return flag }
        let sources = SettingsSources(environment: environment, configFile: nil)
        return (try? sources.bool(for: .json)) ?? false
    }

    /// The level the flags ask for: `--log-level` wins over `--quiet` and `--verbose`.
    private static func flagLevel(_ options: GlobalOptions) -> Logger.Level? {
        if let option = options.logLevel { return option.level }
        if options.quiet { return .error }
        if options.verbose { return .debug }
        return nil
    }

    /// The level one layer asks for, with the same rule as the flags.
    private static func level(in layer: SettingsSources) throws -> Logger.Level? {
        let named = try layer.value(for: .logLevel, expected: "a log level (\(LogLevelOption.namesList))") {
            LogLevelOption(argument: $0)
        }
        if let named { return named.level }
        let quiet = try layer.bool(for: .quiet) ?? false
        let verbose = try layer.bool(for: .verbose) ?? false
        if quiet && verbose, let origin = layer.text(for: .verbose)?.origin {
            let place: String
            switch origin {
            case .environment: place = "environment"
            case .configFile(let path, _): place = "config file \(path)"
            }
            throw ConfigurationError.conflict(origin: place, first: .quiet, second: .verbose)
        }
        if quiet { return .error }
        if verbose { return .debug }
        return nil
    }
}
