import ArgumentParser
import StoreMaintenance
import SyncStore

/// `storekeep init STORE --model MODEL --content-name NAME [--peer-id ID]`: creates an empty store.
struct InitCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new, empty store for a model version.",
        discussion: "The store must not exist. It is built under a temporary name and moved into place when complete.")

    /// The store file to create.
    @Argument(help: "The store file to create.", completion: .file())
    var store: String

    /// The model the store is for.
    @Option(help: "The model: an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    /// The model version, when not the current one.
    @Option(help: "The model version (default: the model's current version).")
    var modelVersion: String?

    /// The sync namespace.
    @Option(help: "The content name: the sync namespace (letters, digits, '.', '_', '-').")
    var contentName: String

    /// This replica's peer ID.
    @Option(help: "This replica's peer ID (default: a new UUID).")
    var peerID: String?

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Creates the store and prints what `info` would print about it.
    func run(context: CommandContext) throws {
        let chosen = try ModelLoader.load(path: model, version: modelVersion)
        context.logger.info("creating store", metadata: ["store": "\(store)", "model": "\(chosen.versionName)"])
        let created = try SyncStore.create(at: store, model: chosen, contentName: contentName, peerID: peerID)
        let info = try StoreInfo(store: created)
        try context.output.emit(info) { "created \(store)\n" + StoreInfoText(info: info).render() }
    }
}
