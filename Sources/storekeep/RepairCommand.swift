import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep repair STORE`: plans the fixes for what `check` finds, prints the plan, backs the
/// store up and applies them as one history transaction by `storekeep.repair`.
struct RepairCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Fix what `check` finds: duplicate seeds and singletons, invalid records (by policy), dangling links, orphaned files.",
        discussion: """
            Every fix is deterministic (two peers with the same content make the same choices) and is \
            saved as one history transaction by storekeep.repair, so it reaches the other peers. The \
            store is locked and backed up to STORE.repair-<time>.backup first. Exit status: 0 nothing \
            left to fix, 1 findings left that repair does not fix (listed with hints). See docs/repair.md.
            """)

    /// The store to repair.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// Finding codes to repair; all repairable codes when absent.
    @Option(name: .customLong("only"), parsing: .upToNextOption, help: "Repair only findings of these codes (see docs/checks.md).")
    var only: [String] = []

    /// Print the plan and change nothing.
    @Flag(help: "Print the plan and change nothing.")
    var dryRun = false

    /// Skip the backup.
    @Flag(help: "Do not back the store up before changing it.")
    var noBackup = false

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects unknown finding codes.
    func validate() throws {
        for code in only where CheckCode(rawValue: code) == nil {
            throw ValidationError("--only: unknown finding code '\(code)'; known codes are listed in docs/checks.md (for example seed.duplicate, singleton.duplicate, blob.orphaned).")
        }
    }

    /// Runs the repair and prints the plan and what was done.
    func run(context: CommandContext) throws {
        let codes = only.isEmpty ? nil : Set(only.compactMap(CheckCode.init(rawValue:)))
        let options = RepairOptions(only: codes, dryRun: dryRun, backup: !noBackup)
        let report = try StoreRepairer(path: store, options: options).run()
        try context.output.emit(report) { RepairText.render(report) }
        if !report.plan.leftovers.isEmpty || !report.remaining.isEmpty {
            throw CommandExit(status: 1)
        }
    }
}
