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
                blobs: snapshot.blobs)
            return (URL(fileURLWithPath: path).lastPathComponent, sha, header)
        }
    }

    /// The size of the parts a snapshot's content is encoded and merged in: what applying a
    /// baseline holds of it in memory, whatever the size of the store it was made from.
    static let partBytes = 8 << 20

    /// A snapshot that cannot be opened or read as a store of the importing store's model.
    struct UnusableSnapshot: Error {
        /// What opening or reading it said.
        let error: StoreError
    }

    /// An error of the store a part was merged into, carried through the snapshot's export.
    private struct PartNotMerged: Error {
        let error: any Error
    }

    /// Merges the baseline `name` into `store`, whatever its format, after checking that it still
    /// covers `vector` (what its header said when it was chosen). A format-1 body is read a block
    /// and merged a zstd frame at a time (``SyncNamespace/readBaseline(_:parts:)``); a
    /// snapshot is checked and its database file unpacked into a folder beside `store`
    /// (`.<name>.baseline-<pid>`, removed afterwards), opened as a store of `store`'s model whose
    /// blobs are read where they lie in the baseline, and its content encoded and merged a part
    /// (``partBytes``) at a time, in the one SQLite transaction of
    /// ``SyncStore/applyBaseline(coverage:parts:)``.
    ///
    /// - Returns: what the merge did.
    /// - Throws: ``ContainerError`` for a damaged or changed baseline; ``UnusableSnapshot`` when the
    ///   snapshot is not a usable store of this model; what the merge throws (nothing merged).
    static func apply(_ name: String, in namespace: SyncNamespace, to store: SyncStore, covering vector: [String: Int64]) throws -> RemoteImportReport {
        func checked(_ header: BaselineHeader) throws -> BaselineCoverage {
            guard header.vector == vector else {
                throw ContainerError(.damagedLog, path: "\(namespace.baselineFolder)/\(name)", message: "changed while it was read", hint: "run sync again")
            }
            return BaselineCoverage(vector: header.vector, latestClock: HybridTimestamp(rawValue: header.latestClock))
        }
        let listed = namespace.baselineHeader(name)
        guard listed?.format == BaselineHeader.snapshotFormat else {
            // Format 1: read a block at a time and merged a zstd frame (a part) at a time, in the
            // one transaction that the checksum at the end of the file undoes when it fails.
            let coverage = try checked(try listed ?? namespace.verifyBaseline(name).header)
            return try store.applyBaseline(coverage: coverage) { merge in
                let read = try namespace.readBaseline(name) { part in try part.withUnsafeBytes { try merge($0) } }
                _ = try checked(read)
            }
        }
        let scratch = DeadProcessLeftovers.scratchPath(beside: store.path, kind: "baseline")
        try? FileManager.default.removeItem(atPath: scratch)
        guard mkdir(scratch, 0o700) == 0 else {
            throw ContainerError(.io, path: scratch, message: "cannot be created to unpack a baseline: \(String(cString: strerror(errno)))",
                                 hint: "check free space and the permissions of the store's folder")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let database = "\(scratch)/snapshot.store"
        let (header, blobs) = try namespace.extractSnapshotBaseline(name, database: database)
        let coverage = try checked(header)
        let snapshot: SyncStore
        do {
            snapshot = try SyncStore.open(at: database, expecting: store.model, packedBlobs: blobs)
        } catch let error as StoreError {
            throw UnusableSnapshot(error: error)
        }
        do {
            return try store.applyBaseline(coverage: coverage) { merge in
                // The encoder, and the sink it holds, end with this closure.
                try withoutActuallyEscaping(merge) { merge in
                    let encoder = BaselineEncoder(handingOnEvery: partBytes) { part in
                        do {
                            try part.withUnsafeBytes { try merge($0) }
                        } catch {
                            throw PartNotMerged(error: error)
                        }
                    }
                    do {
                        _ = try snapshot.exportBaseline(into: encoder)
                    } catch let error as StoreError {
                        throw UnusableSnapshot(error: error)
                    }
                }
            }
        } catch let carried as PartNotMerged {
            throw carried.error
        }
    }
}
