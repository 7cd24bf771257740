import ArgumentParser

/// `storekeep model`: commands about data models.
struct ModelCommand: ParsableCommand {
    /// Name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Show what storekeep reads from an Xcode data model.",
        subcommands: [ModelShowCommand.self])
}
