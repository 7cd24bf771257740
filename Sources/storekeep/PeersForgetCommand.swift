import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep peers forget STORE --container DIR --peer PEER`.
struct PeersForgetCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget a peer that will not come back, so that it no longer holds archiving back.",
        discussion: "If it syncs again, it counts again: it starts from the newest baseline and exports its own changes as any peer does.")

    /// The store (one of the other peers).
    @Argument(help: "The store file (of a peer that stays).", completion: .file())
    var store: String

    /// The container folder.
    @Option(help: "The shared container folder.", completion: .directory)
    var container: String

    /// The peer to forget.
    @Option(help: "The peer ID to forget.")
    var peer: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Forgets and says so.
    func run(context: CommandContext) throws {
        try PeerRegistry(path: store, container: container).forget(peer)
        try context.output.emit(["forgotten": peer]) { "\(store): peer \(peer) forgotten; it no longer holds archiving back" }
    }
}
