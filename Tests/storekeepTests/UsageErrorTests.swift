import Foundation
import Testing

/// End-to-end tests that wrong command lines exit 64 with a message on stderr.
@Suite("usage errors")
struct UsageErrorTests {
    @Test("an unknown subcommand exits 64", arguments: [["frobnicate"], ["version", "extra"]])
    func unknownSubcommand(arguments: [String]) throws {
        let result = try StorekeepProcess.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("storekeep: error: "), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("an unknown flag exits 64 and names the flag")
    func unknownFlag() throws {
        let result = try StorekeepProcess.run(["version", "--colour"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--colour"), "\(result)")
        #expect(result.stderr.contains("\nhint: "), "\(result)")
    }

    @Test("an invalid --log-level exits 64 and lists the valid levels")
    func invalidLogLevel() throws {
        let result = try StorekeepProcess.run(["version", "--log-level", "loud"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("loud"), "\(result)")
        #expect(result.stderr.contains("critical"), "\(result)")
    }

    @Test("--quiet with --verbose exits 64")
    func quietAndVerbose() throws {
        let result = try StorekeepProcess.run(["version", "--quiet", "--verbose"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--quiet and --verbose"), "\(result)")
    }

    @Test("with --json a usage error also prints a JSON error document on stdout")
    func jsonUsageError() throws {
        let result = try StorekeepProcess.run(["version", "--json", "--colour"])
        #expect(result.status == 64, "\(result)")
        let error = try result.jsonError()
        #expect(error["kind"] as? String == "usage")
        #expect(error["exitCode"] as? Int == 64)
        #expect((error["message"] as? String)?.contains("--colour") == true)
    }

    @Test("help lists the subcommands and exits 0")
    func help() throws {
        let result = try StorekeepProcess.run(["help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("SUBCOMMANDS:"), "\(result)")
        #expect(result.stdout.contains("version"), "\(result)")
    }
}
