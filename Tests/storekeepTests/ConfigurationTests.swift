import Foundation
import Testing

/// End-to-end tests of settings precedence (flag, environment, config file) and of config errors.
@Suite("configuration")
struct ConfigurationTests {
    @Test("--config naming a missing file exits 78 and names the file")
    func missingConfigFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("absent.conf").path
        let result = try StorekeepProcess.run(["version", "--config", path])
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("storekeep: error: "), "\(result)")
        #expect(result.stderr.contains(path), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("a malformed line exits 78 and names the file and line")
    func malformedLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("# settings\nlog-level: info\nthis line has no colon\n", to: "bad.conf")
        let result = try StorekeepProcess.run(["version", "--config", path])
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("\(path), line 3"), "\(result)")
        #expect(result.stderr.contains("hint: "), "\(result)")
    }

    @Test("an unknown key exits 78 naming the key, and under --json stdout carries the error document")
    func unknownKeyAsJSON() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("colour: red\n", to: "unknown.conf")
        let result = try StorekeepProcess.run(["version", "--json", "--config", path])
        #expect(result.status == 78, "\(result)")
        let error = try result.jsonError()
        #expect(error["kind"] as? String == "badConfiguration")
        #expect(error["exitCode"] as? Int == 78)
        #expect((error["message"] as? String)?.contains("line 1: unknown key 'colour'") == true)
        #expect((error["hint"] as? String)?.contains("log-level") == true)
        #expect(result.stderr.contains("storekeep: error: config file"), "\(result)")
    }

    @Test("STOREKEEP_CONFIG is used when --config is absent")
    func configFromEnvironment() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("json: true\n", to: "storekeep.conf")
        let result = try StorekeepProcess.run(["version"], environment: ["STOREKEEP_CONFIG": path])
        #expect(result.status == 0, "\(result)")
        #expect(try result.jsonObject()["version"] is String)
    }

    @Test("the environment wins over the config file, and a flag wins over the environment")
    func precedence() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("json: true  # scripts read JSON\n", to: "storekeep.conf")

        let fromFile = try StorekeepProcess.run(["version", "--config", path])
        #expect(fromFile.stdout.hasPrefix("{"), "\(fromFile)")

        let environmentOverFile = try StorekeepProcess.run(
            ["version", "--config", path], environment: ["STOREKEEP_JSON": "false"])
        #expect(environmentOverFile.stdout.hasPrefix("storekeep "), "\(environmentOverFile)")

        let flagOverEnvironment = try StorekeepProcess.run(
            ["version", "--no-json"], environment: ["STOREKEEP_JSON": "1"])
        #expect(flagOverEnvironment.stdout.hasPrefix("storekeep "), "\(flagOverEnvironment)")
    }

    @Test("an invalid value in the environment exits 78 naming the variable")
    func invalidEnvironmentValue() throws {
        let result = try StorekeepProcess.run(["version"], environment: ["STOREKEEP_LOG_LEVEL": "loud"])
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("STOREKEEP_LOG_LEVEL"), "\(result)")
    }
}
