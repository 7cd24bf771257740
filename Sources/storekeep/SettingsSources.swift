import Foundation

/// The places a setting can come from after the command-line flags: the `STOREKEEP_*`
/// environment variables, then the config file.
///
/// A command that adds a setting reads it here when its own flag is absent:
/// ```swift
/// let timeout = try options.lockTimeout
///     ?? context.settings.sources.value(for: .lockTimeout, expected: "a number of seconds") { Int($0) }
/// ```
struct SettingsSources: Sendable {
    /// The environment variables.
    var environment: ProcessEnvironment
    /// The config file, when one was given.
    var configFile: ConfigFile?

    /// The text of a setting and where it came from: the environment first, then the config file.
    func text(for key: SettingKey) -> SettingValue? {
        if let value = environment[key.environmentVariable] {
            return SettingValue(
                text: value.trimmingCharacters(in: .whitespaces),
                origin: .environment(variable: key.environmentVariable))
        }
        return configFile?.values[key]
    }

    /// A setting converted by `parse`, from the environment or else the config file.
    ///
    /// - Parameter expected: what a valid value is, for the error message ("a boolean").
    /// - Throws: ``ConfigurationError/invalidValue(origin:value:expected:)`` naming the variable
    ///   or file and line when `parse` returns `nil`.
    func value<T>(for key: SettingKey, expected: String, parse: (String) -> T?) throws -> T? {
        guard let found = text(for: key) else { return nil }
        guard let value = parse(found.text) else {
            throw ConfigurationError.invalidValue(origin: found.origin, value: found.text, expected: expected)
        }
        return value
    }

    /// A yes/no setting: `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, in any case.
    func bool(for key: SettingKey) throws -> Bool? {
        try value(for: key, expected: "a boolean (true or false)") { text in
            switch text.lowercased() {
            case "true", "yes", "on", "1": true
            case "false", "no", "off", "0": false
            default: nil
            }
        }
    }
}

extension SettingsSources {
    /// The same sources, split into layers in order of precedence (environment, then config
    /// file), for settings whose several keys must be resolved together within one layer.
    var layers: [SettingsSources] {
        [
            SettingsSources(environment: environment, configFile: nil),
            SettingsSources(environment: ProcessEnvironment([:]), configFile: configFile),
        ]
    }
}
