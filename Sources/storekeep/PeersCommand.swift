import ArgumentParser

/// `storekeep peers`: the peers of a store's namespace, and forgetting one.
struct PeersCommand: ParsableCommand {
    /// Name, help text and subcommands (`list` is the default).
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "List the peers of a store's namespace, or forget one that will not come back.",
        subcommands: [PeersListCommand.self, PeersForgetCommand.self],
        defaultSubcommand: PeersListCommand.self)
}
