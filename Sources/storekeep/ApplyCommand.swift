import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep apply STORE CHANGES`: saves a JSON-lines change file as one transaction.
struct ApplyCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Save a JSON-lines file of changes (insert, update, delete, add, remove) as one transaction.",
        discussion: """
            Each line is one JSON object: {"op":"insert","entity":…,"id":…,"values":{…},"toOne":{…},"toMany":{…}}, \
            {"op":"update","record":…,"values":{…}}, {"op":"delete","record":…}, or {"op":"add"|"remove","record":…,\
            "relationship":…,"members":[…]}. A record is named by global ID ("ID" or {"id":"ID"}) or by its seed key or \
            uniqueness-constraint values ({"entity":"SpeechType","key":{"name":"Toast"}}). Everything is saved as one \
            history transaction through the same path an app's save takes, or nothing is: a bad line is reported with \
            its line number (exit 65). See docs/cli.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The change file.
    @Argument(help: "The JSON-lines change file.", completion: .file())
    var changes: String

    /// The history author.
    @Option(help: "The history author of the transaction.")
    var author = "storekeep.apply"

    /// Check every line and save nothing.
    @Flag(help: "Check every line against the store and save nothing.")
    var dryRun = false

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects an empty author.
    func validate() throws {
        if author.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--author must not be empty.") }
    }

    /// Applies the file and says what was saved.
    func run(context: CommandContext) throws {
        let script = try ChangeScript(path: changes)
        let report = try ChangeScriptRunner(path: store, script: script, author: author, dryRun: dryRun).run()
        try context.output.emit(report) {
            let what = "\(report.inserted.count) inserted, \(report.updated) updated, \(report.deleted) deleted"
            if report.dryRun { return "\(store): \(report.operations) operation(s) checked (\(what)); dry run: nothing saved" }
            return "\(store): \(report.operations) operation(s) saved as transaction \(report.sequence.map(String.init) ?? "-") by \(author) (\(what))"
        }
    }
}
