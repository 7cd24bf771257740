import Foundation
import ObjectModel
import SyncContainer

/// The peers a peer has forgotten (`storekeep peers forget`), kept in its own folder of the
/// namespace (`peers/<peer>/forgotten.json`: a peer writes only its own files). A forgotten peer no
/// longer holds archiving back; when it syncs again after being forgotten, it counts again.
struct ForgottenPeers: Codable {
    /// The file format (1).
    var format = 1
    /// Per forgotten peer, when it was forgotten (seconds since 1970).
    var forgotten: [String: Double] = [:]

    static func path(in namespace: SyncNamespace, by peer: String) -> String { "\(namespace.peerFolder(peer))/forgotten.json" }

    /// The list `peer` keeps (empty when it has none, or it cannot be read).
    static func read(in namespace: SyncNamespace, by peer: String) -> ForgottenPeers {
        guard let data = try? namespace.storage.read(path(in: namespace, by: peer)),
              let list = try? JSONDecoder().decode(ForgottenPeers.self, from: data) else { return ForgottenPeers() }
        return list
    }

    /// Publishes the list of `peer`.
    func write(in namespace: SyncNamespace, by peer: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try namespace.storage.write(try encoder.encode(self), to: Self.path(in: namespace, by: peer), replacing: true)
    }

    /// The peers of `namespace` forgotten by any peer and not seen since.
    static func all(in namespace: SyncNamespace, peers: [String]) -> Set<String> {
        var result = Set<String>()
        for peer in peers {
            for (forgotten, at) in read(in: namespace, by: peer).forgotten {
                let seen = (try? namespace.manifest(of: forgotten))??.lastSeen ?? 0
                if seen <= at { result.insert(forgotten) }
            }
        }
        return result
    }
}
