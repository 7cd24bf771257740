import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep sync STORE --container DIR`: exports the store's new transactions into the container,
/// imports every other peer's, merges, fixes, and publishes the peer's manifest.
struct SyncCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Exchange transactions with the other peers of the store's content name through a shared container folder.",
        discussion: """
            Exports the transactions not yet exported, imports every other peer's (same content name and \
            model version), merges them per property (last writer wins by hybrid clock, ties by peer ID; a \
            delete wins), makes repair's deterministic fixes as one transaction by storekeep.import, and \
            publishes this peer's manifest. Waits for the store's lock while another process holds it. \
            Exit status: 0 done (warnings included), 65 some logs could not be used (each named; everything \
            else was done), and the usual codes of docs/exit-codes.md. See docs/container.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The container folder.
    @Option(help: "The shared container folder (it must exist).", completion: .directory)
    var container: String

    /// Say what would happen, change nothing.
    @Flag(help: "Say what would be exported and imported; take no lock, write nothing.")
    var dryRun = false

    /// Switch sync on or off instead of syncing.
    @Flag(help: "Switch sync on (again) for the store, then stop.")
    var enable = false
    @Flag(help: "Switch sync off for the store (history keeps being recorded; nothing unexported is ever pruned), then stop.")
    var disable = false

    /// How long to wait for the store's lock.
    @Option(help: "Seconds to wait for the store's lock while another process holds it.")
    var lockTimeout: Double = 120

    /// The most changes one log file holds.
    @Option(help: "The most changes one log file holds (whole transactions; default 50,000).")
    var changesPerLog: Int = 50_000

    /// A new peer ID for a store restored from a backup.
    @Option(help: "For a store restored from a backup that sync refused: continue it under this new peer ID (docs/container.md, \"Restored stores\").")
    var newPeerID: String?

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects contradictory flags.
    func validate() throws {
        if enable && disable { throw ValidationError("--enable and --disable cannot be given together.") }
        if (enable || disable) && dryRun { throw ValidationError("--dry-run does not go with --enable or --disable.") }
        if lockTimeout < 0 { throw ValidationError("--lock-timeout must not be negative.") }
        if changesPerLog < 1 { throw ValidationError("--changes-per-log must be at least 1.") }
        if newPeerID != nil && (enable || disable || dryRun) { throw ValidationError("--new-peer-id does not go with --enable, --disable or --dry-run.") }
    }

    /// Syncs, or switches sync on or off, and prints what happened.
    func run(context: CommandContext) throws {
        var options = SyncOptions(dryRun: dryRun, changesPerLog: changesPerLog, lockTimeout: lockTimeout)
        options.newPeerID = newPeerID
        let synchronizer = StoreSynchronizer(path: store, container: container, options: options)
        let report = enable || disable ? try synchronizer.setEnabled(enable) : try synchronizer.run()
        try context.output.emit(report) { SyncText.render(report, switched: enable || disable) }
        if report.hasErrors { throw CommandExit(status: 65) }
    }
}
