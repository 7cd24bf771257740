import Foundation
import Testing

/// End-to-end tests that logs go to stderr only, at the level the settings ask for.
@Suite("logging")
struct LoggingTests {
    @Test("with --verbose --json, debug logs go to stderr and stdout stays one JSON document")
    func logsNeverOnStdout() throws {
        let result = try StorekeepProcess.run(["version", "--json", "--verbose"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("debug"), "\(result)")
        #expect(result.stderr.contains("linked libraries resolved"), "\(result)")
        #expect(!result.stdout.contains("linked libraries resolved"), "\(result)")
        #expect(try result.jsonObject()["version"] is String)
    }

    @Test("the default level leaves debug messages out")
    func defaultLevel() throws {
        let result = try StorekeepProcess.run(["version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("the level comes from STOREKEEP_LOG_LEVEL, or else from the config file")
    func levelFromEnvironmentAndFile() throws {
        let fromEnvironment = try StorekeepProcess.run(["version"], environment: ["STOREKEEP_LOG_LEVEL": "trace"])
        #expect(fromEnvironment.stderr.contains("linked libraries resolved"), "\(fromEnvironment)")

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("log-level: debug\n", to: "storekeep.conf")
        let fromFile = try StorekeepProcess.run(["version", "--config", path])
        #expect(fromFile.stderr.contains("linked libraries resolved"), "\(fromFile)")

        let flagWins = try StorekeepProcess.run(["version", "--config", path, "--quiet"])
        #expect(flagWins.stderr.isEmpty, "\(flagWins)")
    }
}
