import Logging
import Testing

@testable import storekeep

/// Unit tests of how flags, environment variables and the config file combine.
@Suite("settings resolution")
struct SettingsResolutionTests {
    /// Options parsed from `arguments` as the `version` command would see them.
    func options(_ arguments: [String]) throws -> GlobalOptions {
        try GlobalOptions.parse(arguments)
    }

    @Test("defaults: text output at the notice level")
    func defaults() throws {
        let settings = try ResolvedSettings(options: options([]), environment: ProcessEnvironment([:]))
        #expect(settings.json == false)
        #expect(settings.logLevel == .notice)
        #expect(settings.quiet == false)
        #expect(settings.configFilePath == nil)
    }

    @Test("--log-level wins over --verbose; --quiet means errors only")
    func flagLevels() throws {
        let environment = ProcessEnvironment(["STOREKEEP_LOG_LEVEL": "trace"])
        #expect(try ResolvedSettings(options: options(["--verbose", "--log-level", "info"]), environment: environment)
            .logLevel == .info)
        let quiet = try ResolvedSettings(options: options(["--quiet"]), environment: environment)
        #expect(quiet.logLevel == .error)
        #expect(quiet.quiet)
    }

    @Test("environment levels: STOREKEEP_LOG_LEVEL, else STOREKEEP_QUIET / STOREKEEP_VERBOSE")
    func environmentLevels() throws {
        #expect(try ResolvedSettings(options: options([]), environment: ProcessEnvironment(["STOREKEEP_LOG_LEVEL": "WARNING"]))
            .logLevel == .warning)
        #expect(try ResolvedSettings(options: options([]), environment: ProcessEnvironment(["STOREKEEP_VERBOSE": "yes"]))
            .logLevel == .debug)
        #expect(throws: ConfigurationError.self) {
            try ResolvedSettings(
                options: options([]), environment: ProcessEnvironment(["STOREKEEP_QUIET": "1", "STOREKEEP_VERBOSE": "1"]))
        }
    }

    @Test("an empty environment variable counts as unset")
    func emptyVariable() throws {
        let settings = try ResolvedSettings(options: options([]), environment: ProcessEnvironment(["STOREKEEP_JSON": ""]))
        #expect(settings.json == false)
    }

    @Test("a bad boolean names the variable")
    func badBoolean() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ResolvedSettings(options: options([]), environment: ProcessEnvironment(["STOREKEEP_JSON": "maybe"]))
        }
        #expect(error == .invalidValue(
            origin: .environment(variable: "STOREKEEP_JSON"), value: "maybe", expected: "a boolean (true or false)"))
    }

    @Test("setting keys map to STOREKEEP_ variables")
    func environmentNames() {
        #expect(SettingKey.logLevel.environmentVariable == "STOREKEEP_LOG_LEVEL")
        #expect(SettingKey.config.environmentVariable == "STOREKEEP_CONFIG")
    }
}
