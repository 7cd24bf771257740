import Foundation
import ObjectModel
import SyncContainer
import SyncStore

/// Snapshot baselines (format 2) between a store and a namespace: written by `rekey` and
/// `archive` as a copy of the store's files, read by a peer that needs a baseline by opening
/// that copy as a store of its own and encoding its content the way a format-1 baseline holds it.
enum SnapshotBaselines {
    /// Publishes a snapshot baseline of `store` into `namespace` (or finds the one an earlier,
    /// stopped run published: same name, same coverage).
    ///
    /// - Returns: the baseline's file name, the SHA-256 of the file, and its header.
    static func publish(of store: SyncStore, into namespace: SyncNamespace, reason: String) throws -> (name: String, sha256: String, header: BaselineHeader) {
        try store.withFileSnapshot { snapshot in
            var header = BaselineHeader(contentName: namespace.contentName, modelHash: namespace.modelHash, peer: store.metadata.peerID,
                                        vector: snapshot.coverage.vector, latestClock: snapshot.coverage.latestClock.rawValue,
                                        records: snapshot.records, memberships: snapshot.memberships, tombstones: snapshot.tombstones,
                                        reason: reason, account: store.metadata.accountToken)
            header.format = BaselineHeader.snapshotFormat
            let (path, sha) = try namespace.publishSnapshotBaseline(
                header: header, database: snapshot.databasePath, databaseBytes: snapshot.databaseBytes,
                blobs: snapshot.blobs.map { SnapshotBaseline.Blob(digest: $0.digest, path: $0.path, bytes: $0.bytes) })
            return (URL(fileURLWithPath: path).lastPathComponent, sha, header)
        }
    }

    /// The header and the format-1 body of the baseline `name`, whatever its format: a snapshot is
    /// checked and unpacked into a folder beside `store` (`.<name>.baseline-<pid>`, removed
    /// afterwards), opened as a store of `store`'s model, and encoded.
    ///
    /// - Throws: ``ContainerError`` for a damaged baseline; `StoreError` when the snapshot is not a
    ///   usable store of this model.
    static func body(of name: String, in namespace: SyncNamespace, for store: SyncStore) throws -> (BaselineHeader, [UInt8]) {
        guard namespace.baselineHeader(name)?.format == BaselineHeader.snapshotFormat else {
            return try namespace.readBaseline(name)
        }
        let storeURL = URL(fileURLWithPath: store.path)
        let folder = storeURL.deletingLastPathComponent().path
        let prefix = ".\(storeURL.lastPathComponent).baseline-"
        DeadProcessLeftovers.remove(in: folder, prefixes: [prefix])
        let scratch = "\(folder)/\(prefix)\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        guard mkdir(scratch, 0o700) == 0 else {
            throw ContainerError(.io, path: scratch, message: "cannot be created to unpack a baseline: \(String(cString: strerror(errno)))",
                                 hint: "check free space and the permissions of the store's folder")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let database = "\(scratch)/snapshot.store"
        let header = try namespace.extractSnapshotBaseline(name, database: database, blobFolder: database + ".blobs")
        let snapshot = try SyncStore.open(at: database, expecting: store.model)
        let encoder = BaselineEncoder()
        _ = try snapshot.exportBaseline(into: encoder)
        return (header, encoder.bytes)
    }
}
