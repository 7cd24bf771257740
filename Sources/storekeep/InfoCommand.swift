import ArgumentParser
import StoreMaintenance
import SyncStore

/// `storekeep info STORE`: metadata, model, record counts and history size of a store.
struct InfoCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a store's metadata, model, record counts per entity and history size.",
        discussion: "Reads the store without writing to it.")

    /// The store to describe.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Opens the store read-only and prints the report.
    func run(context: CommandContext) throws {
        let opened = try SyncStore.open(at: store, readOnly: true)
        let info = try StoreInfo(store: opened)
        try context.output.emit(info) { StoreInfoText(info: info).render() }
    }
}
