import ArgumentParser

/// `storekeep archive`: moves the logs every peer has imported into a verified archive, and
/// lists, verifies and restores archives.
struct ArchiveCommand: ParsableCommand {
    /// Name, help text and subcommands (`create` is the default: `storekeep archive STORE …`).
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Archive the transaction logs every registered peer has imported; list, verify and restore archives.",
        subcommands: [ArchiveCreateCommand.self, ArchiveListCommand.self, ArchiveVerifyCommand.self, ArchiveRestoreCommand.self],
        defaultSubcommand: ArchiveCreateCommand.self)
}
