import ArgumentParser

/// The `storekeep` root command: an admin utility for synced object stores.
///
/// The root command only lists subcommands. Adding one is a single line in
/// ``configuration``'s `subcommands:` list; the subcommand conforms to ``StorekeepCommand``
/// so that ``CommandLauncher`` resolves its settings and maps its errors to exit codes.
@main
struct Storekeep: ParsableCommand {
    /// The version of this build of storekeep, printed by `storekeep version` and `--version`.
    static let version = "0.1.0"

    /// The command tree: name, help text and every registered subcommand.
    static let configuration = CommandConfiguration(
        commandName: "storekeep",
        abstract: "Inspect, migrate, check and repair synced object stores.",
        discussion: """
            storekeep works on stores that an app keeps on each device of a user and keeps in \
            step through transaction logs in a shared container.

            Every command takes --json (stdout then carries one JSON document and nothing else; \
            logs always go to stderr), --quiet, --verbose and --log-level. Settings come from \
            flags, then STOREKEEP_* environment variables, then the file named by --config or \
            STOREKEEP_CONFIG. Exit codes are listed in docs/exit-codes.md.
            """,
        version: version,
        subcommands: [
            ModelCommand.self,
            InitCommand.self,
            InfoCommand.self,
            DigestCommand.self,
            InspectCommand.self,
            MigrateCommand.self,
            CheckCommand.self,
            RepairCommand.self,
            SyncCommand.self,
            ApplyCommand.self,
            RekeyCommand.self,
            ArchiveCommand.self,
            PeersCommand.self,
            SeedCommand.self,
            SeedStoreCommand.self,
            AccountCommand.self,
            VersionCommand.self,
        ]
    )

    /// Runs the command line through ``CommandLauncher`` instead of ArgumentParser's default
    /// `main()`, which would turn every library error into exit status 1.
    static func main() {
        CommandLauncher(root: Storekeep.self).launch()
    }
}
