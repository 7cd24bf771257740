import ArgumentParser
import Foundation
import Testing

@testable import storekeep

/// Fails when a command has no section in docs/cli.md, or a section names no command.
@Suite("documentation")
struct DocumentationTests {
    /// The full names (`storekeep model show`) of every command that does something, i.e.
    /// every registered command without subcommands of its own.
    static func leafCommandNames(of command: any ParsableCommand.Type, prefix: String) -> [String] {
        let name = command.configuration.commandName ?? command._commandName
        let path = prefix.isEmpty ? name : "\(prefix) \(name)"
        let children = command.configuration.subcommands
        if children.isEmpty { return [path] }
        return children.flatMap { leafCommandNames(of: $0, prefix: path) }
    }

    /// The `## storekeep …` headings in docs/cli.md.
    static func documentedCommandNames() throws -> Set<String> {
        let url = StorekeepProcess.packageRoot.appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let headings = text.split(separator: "\n")
            .filter { $0.hasPrefix("## storekeep") }
            .map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }
        return Set(headings)
    }

    @Test("every command has a '## storekeep <command>' section in docs/cli.md")
    func everyCommandIsDocumented() throws {
        let commands = Self.leafCommandNames(of: Storekeep.self, prefix: "")
        #expect(commands.contains("storekeep version"))
        let documented = try Self.documentedCommandNames()
        for command in commands {
            #expect(documented.contains(command), "docs/cli.md has no '## \(command)' section")
        }
    }

    @Test("every command section in docs/cli.md names a registered command")
    func noStaleSections() throws {
        var known = Set<String>()
        for leaf in Self.leafCommandNames(of: Storekeep.self, prefix: "") {
            let words = leaf.split(separator: " ")
            for count in 1...words.count { known.insert(words.prefix(count).joined(separator: " ")) }
        }
        for section in try Self.documentedCommandNames() {
            #expect(known.contains(section), "docs/cli.md documents '\(section)', which is not a command")
        }
    }

    @Test("the built binary lists the same top-level subcommands as the source")
    func binaryMatchesSource() throws {
        let help = try StorekeepProcess.run(["help"])
        #expect(help.status == 0, "\(help)")
        for command in Storekeep.configuration.subcommands {
            let name = command.configuration.commandName ?? command._commandName
            #expect(help.stdout.contains("  \(name) "), "`storekeep help` does not list \(name): rebuild")
        }
    }
}
