import Foundation

/// A setting that can come from the environment or the config file, with the name used in each.
///
/// The config-file name is lower-case with dashes (`log-level`); the environment variable is
/// `STOREKEEP_` followed by the upper-case name with underscores (`STOREKEEP_LOG_LEVEL`).
/// A command that needs a new setting adds a key here and to ``configFileKeys``.
struct SettingKey: Hashable, Sendable, CustomStringConvertible {
    /// The name in the config file.
    let name: String

    /// Creates a key from its config-file name.
    init(_ name: String) {
        self.name = name
    }

    /// The environment variable that carries this setting.
    var environmentVariable: String {
        "STOREKEEP_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The config-file name.
    var description: String { name }

    /// `json`: print JSON on stdout.
    static let json = SettingKey("json")
    /// `quiet`: log only errors.
    static let quiet = SettingKey("quiet")
    /// `verbose`: log debug messages too.
    static let verbose = SettingKey("verbose")
    /// `log-level`: the lowest level logged.
    static let logLevel = SettingKey("log-level")
    /// `config`: the config file itself (environment only: a config file cannot name another).
    static let config = SettingKey("config")

    /// The keys a config file may contain; any other key is a configuration error.
    static let configFileKeys: [SettingKey] = [.json, .logLevel, .quiet, .verbose]
}
