import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep peers [list] STORE --container DIR`.
struct PeersListCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the peers of the store's namespace, from their manifests.")

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The container folder.
    @Option(help: "The shared container folder.", completion: .directory)
    var container: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Prints the peers.
    func run(context: CommandContext) throws {
        let peers = try PeerRegistry(path: store, container: container).list()
        try context.output.emit(peers) {
            var table = TextTable(columns: [.init("peer"), .init("version"), .init("exported", alignment: .right), .init("sync"), .init("last seen"), .init("note")])
            let formatter = ISO8601DateFormatter()
            for peer in peers {
                let seen = peer.lastSeen.map { formatter.string(from: Date(timeIntervalSince1970: $0)) } ?? "-"
                let note = [peer.isLocal ? "this store" : nil, peer.forgotten ? "forgotten" : nil, peer.lastSeen == nil ? "no manifest" : nil]
                    .compactMap { $0 }.joined(separator: ", ")
                table.append([peer.peer, peer.modelVersion ?? "-", peer.exported.map(String.init) ?? "-",
                              peer.syncEnabled.map { $0 ? "on" : "off" } ?? "-", seen, note])
            }
            return table.render()
        }
    }
}
