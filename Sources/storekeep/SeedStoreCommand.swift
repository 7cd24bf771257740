import ArgumentParser

/// `storekeep seed-store`: the read-only seed stores of a model's seed configurations (article 4).
struct SeedStoreCommand: ParsableCommand {
    /// Name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "seed-store",
        abstract: "Build the read-only seed store of a seed configuration beside a user's store.",
        subcommands: [SeedStoreBuildCommand.self])
}
