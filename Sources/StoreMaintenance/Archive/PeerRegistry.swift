import Foundation
import SyncContainer
import SyncStore

/// `storekeep peers`: the peers of a store's namespace as their manifests describe them, and
/// forgetting one that will not come back (so that it no longer holds archiving back).
public struct PeerRegistry: Sendable {
    /// One peer, as its manifest says.
    public struct Peer: Codable, Sendable, Hashable {
        public var peer: String
        /// Whether it is the store's own peer.
        public var isLocal: Bool
        /// From its manifest (absent when it has none).
        public var modelVersion: String?
        public var exported: Int64?
        public var imported: [String: Int64]?
        public var syncEnabled: Bool?
        public var lastSeen: Double?
        /// Whether some peer forgot it (and it has not synced since).
        public var forgotten: Bool
    }

    /// The store and the container.
    public let path: String
    public let container: String

    /// Creates a registry view.
    public init(path: String, container: String) {
        self.path = path
        self.container = URL(fileURLWithPath: container).standardizedFileURL.path
    }

    /// Every peer of the store's namespace.
    ///
    /// - Throws: ``MaintenanceError`` `missingInput` when the container folder does not exist,
    ///   `badInput` for a seed store.
    public func list() throws -> [Peer] {
        try requireContainer()
        let store = try SyncStore.open(at: path, readOnly: true)
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        let peers = Set(try namespace.peers()).union([store.metadata.peerID]).sorted()
        let forgotten = ForgottenPeers.all(in: namespace, peers: peers)
        return peers.map { name in
            let manifest = (try? namespace.manifest(of: name)) ?? nil
            return Peer(peer: name, isLocal: name == store.metadata.peerID, modelVersion: manifest?.modelVersion, exported: manifest?.exported,
                        imported: manifest?.imported, syncEnabled: manifest?.syncEnabled, lastSeen: manifest?.lastSeen, forgotten: forgotten.contains(name))
        }
    }

    /// Forgets `peer`: recorded in this store's own folder of the namespace. When it syncs again it counts again.
    ///
    /// - Throws: ``MaintenanceError`` for the store's own peer or a peer the namespace does not have,
    ///   or a seed store (nothing is written).
    public func forget(_ peer: String) throws {
        try requireContainer()
        let store = try SyncStore.open(at: path, readOnly: true)
        let namespace = try SyncNamespace.of(store, at: path, in: container)
        guard peer != store.metadata.peerID else {
            throw MaintenanceError(path: path, problem: "cannot forget its own peer \(peer)", hint: "run it from another peer's store", failureKind: .usage)
        }
        guard try namespace.peers().contains(peer) else {
            throw MaintenanceError(path: namespace.path, problem: "has no peer \(peer)", hint: "`storekeep peers STORE --container DIR` lists them", failureKind: .usage)
        }
        var list = ForgottenPeers.read(in: namespace, by: store.metadata.peerID)
        list.forgotten[peer] = Date().timeIntervalSince1970
        try list.write(in: namespace, by: store.metadata.peerID)
    }

    private func requireContainer() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container, isDirectory: &isFolder), isFolder.boolValue else {
            throw MaintenanceError(path: container, problem: "no such container folder", hint: "give the shared folder the store syncs through",
                                   failureKind: .missingInput)
        }
    }
}
