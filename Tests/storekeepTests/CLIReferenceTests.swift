import ArgumentParser
import Foundation
import Testing

@testable import storekeep

/// docs/cli.md cannot drift from the commands: every option a command's `--help` lists is named
/// in that command's section, and every option a section names is one the command takes.
@Suite("cli.md against --help")
struct CLIReferenceTests {
    /// The options every command takes, documented once under "Global options".
    static let globalOptions: Set<String> = ["--json", "--no-json", "--quiet", "--verbose", "--log-level", "--config", "--help", "--version"]

    /// Every leaf command with its full name (`storekeep archive create`).
    static func leafCommands(of command: any ParsableCommand.Type, prefix: String) -> [(name: String, type: any ParsableCommand.Type)] {
        let name = command.configuration.commandName ?? command._commandName
        let path = prefix.isEmpty ? name : "\(prefix) \(name)"
        let children = command.configuration.subcommands
        if children.isEmpty { return [(path, command)] }
        return children.flatMap { leafCommands(of: $0, prefix: path) }
    }

    /// The `--long-option` names in `text`.
    static func optionNames(in text: String) -> Set<String> {
        var found = Set<String>()
        let regex = /--[a-z][a-z0-9-]*/
        for match in text.matches(of: regex) { found.insert(String(match.output)) }
        return found
    }

    /// The text of each `## storekeep …` section of docs/cli.md, by its heading.
    static func sections() throws -> [String: String] {
        let text = try String(contentsOf: StorekeepProcess.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        var sections: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                current = line.hasPrefix("## storekeep") ? line.dropFirst(3).trimmingCharacters(in: .whitespaces) : nil
                continue
            }
            if let current { sections[current, default: ""] += line + "\n" }
        }
        return sections
    }

    @Test("every option in a command's --help is in its docs/cli.md section, and the section names no other")
    func optionsMatchHelp() throws {
        let sections = try Self.sections()
        let commands = Self.leafCommands(of: Storekeep.self, prefix: "")
        #expect(commands.count > 20)
        for (name, type) in commands {
            let help = Storekeep.helpMessage(for: type, columns: 1_000)
            let offered = Self.optionNames(in: help).subtracting(Self.globalOptions)
            let section = try #require(sections[name], "docs/cli.md has no section for \(name)")
            // A section may name another command's option when it says what to run next ("then
            // `storekeep sync --enable`"): only options in its synopsis and tables must exist.
            let documented = Self.optionNames(in: section)
            for option in offered.sorted() {
                #expect(documented.contains(option), "docs/cli.md, \(name): \(option) is not described")
            }
            let synopsis = section.components(separatedBy: "```").dropFirst().first ?? ""
            let tableRows = section.split(separator: "\n").filter { $0.hasPrefix("| `--") }.joined(separator: "\n")
            for option in Self.optionNames(in: synopsis + "\n" + tableRows).subtracting(Self.globalOptions).sorted() {
                #expect(offered.contains(option), "docs/cli.md, \(name): \(option) is not an option of the command")
            }
        }
    }

    @Test("--on-error and --quick|--full are parsed by the argument parser: their choices are in --help, anything else is a usage error")
    func choicesComeFromTheParser() throws {
        #expect(Storekeep.helpMessage(for: MigrateCommand.self, columns: 1_000).contains("(values: stop, skip; default: stop)"))
        let wrong = try StorekeepProcess.run(["migrate", "source.plist", "--to", "t.store", "--on-error", "maybe"])
        #expect(wrong.status == 64 && wrong.stderr.contains("'stop' and 'skip'"), "\(wrong)")
        #expect(throws: (any Error).self) { try CheckCommand.parse(["a.store", "--quick", "--full"]) }
        #expect(try CheckCommand.parse(["a.store", "--full"]).depthFlag == .full)
        #expect(try CheckCommand.parse(["a.store"]).depthFlag == .quick)
    }
}
