import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep rekey STORE --container DIR --to NAME`: moves the store's content to another content name.
struct RekeyCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Move a store's content, and every peer of it, to another content name (sync namespace).",
        discussion: """
            Syncs in the old content name, writes a baseline of the store into the new one and reads it back, \
            leaves a redirect in the old one, moves the store and records the rekey in its migration history. \
            Every other peer follows on its next sync: it imports what remains in the old content name, then \
            exports its own changes into the new one. Stopped at any point, the same command finishes the job. \
            See docs/container.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The container folder.
    @Option(help: "The shared container folder.", completion: .directory)
    var container: String

    /// The new content name.
    @Option(name: .customLong("to"), help: "The new content name (letters, digits, '.', '_', '-').")
    var target: String

    /// Say what would happen, change nothing.
    @Flag(help: "Say what would happen; write nothing.")
    var dryRun = false

    /// The most changes one log file holds in the sync that comes first.
    @Option(help: "The most changes one log file holds in the sync that comes first (whole transactions; default 50,000).")
    var changesPerLog: Int = 50_000

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects a log size that cannot be.
    func validate() throws {
        if changesPerLog < 1 { throw ValidationError("--changes-per-log must be at least 1.") }
    }

    /// Runs the rekey and says what it did.
    func run(context: CommandContext) throws {
        var options = RekeyOptions(dryRun: dryRun)
        options.changesPerLog = changesPerLog
        let report = try StoreRekeyer(path: store, container: container, to: target, options: options).run()
        try context.output.emit(report) {
            if report.alreadyMoved { return "\(store): already on content name \(report.to)" }
            var lines = ["\(store): content name \(report.from) → \(report.to)\(report.dryRun ? " (dry run: nothing written)" : "")"]
            lines.append("synced in \(report.from) first: \(report.exportedTransactions) transaction(s) exported, \(report.importedTransactions) imported")
            lines.append("baseline: \(report.baseline ?? "-") (\(report.baselineRecords) records, \(report.baselineTombstones) tombstones)")
            lines.append("redirect: \(report.redirect ?? "-"); the other peers follow it on their next sync")
            return lines.joined(separator: "\n")
        }
    }
}
