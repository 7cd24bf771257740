import Foundation
import ObjectModel
import SyncStore

/// `storekeep account`: the account a store's data belongs to, and changing it without ever
/// silently deleting local data (article 5).
public struct StoreAccount: Sendable {
    /// What to do with the local data when the store belongs to another account.
    public enum LocalData: String, Sendable {
        /// Refuse.
        case refuse
        /// The local data becomes the new account's, exported on the next sync.
        case keep
        /// A backup is taken, then the store starts empty for the new account.
        case reset
    }

    public let path: String

    /// Creates the command's engine.
    public init(path: String) { self.path = path }

    /// The store's account.
    public func show() throws -> AccountReport {
        let store = try SyncStore.open(at: path, readOnly: true)
        return AccountReport(store: path, account: store.metadata.accountToken, previous: nil, action: "shown")
    }

    /// Gives the store the account `token`.
    ///
    /// - Throws: ``MaintenanceError`` `badInput` when the store belongs to another account and
    ///   `localData` is `.refuse`; `StoreError`.
    public func set(_ token: String, localData: LocalData) throws -> AccountReport {
        guard !token.isEmpty, token.count <= 1_000, !token.contains("\u{0}") else {
            throw MaintenanceError(path: path, problem: "an account token must be 1 to 1,000 characters", failureKind: .usage)
        }
        let lock = try StoreLock.acquire(for: path, command: "storekeep account --set", waitingUpTo: 30)
        defer { lock.release() }
        let previous = try SyncStore.open(at: path, readOnly: true).metadata.accountToken
        var report = AccountReport(store: path, account: token, previous: previous, action: "adopted")
        switch previous {
        case nil:
            try SyncStore.open(at: path).setAccount(token, keepingLocalData: false)
        case token?:
            report.action = "unchanged"
        case let other?:
            switch localData {
            case .refuse:
                throw MaintenanceError(path: path, problem: "belongs to account \(other), not \(token)",
                                       hint: "give --keep-local (the local data becomes \(token)'s, exported on the next sync) or --reset (a backup is taken, then the store starts empty for \(token))",
                                       failureKind: .badInput)
            case .keep:
                try SyncStore.open(at: path).setAccount(token, keepingLocalData: true)
                report.action = "keptLocal"
            case .reset:
                let (backup, peer) = try reset(to: token)
                report.action = "reset"
                report.backup = backup
                report.newPeerID = peer
            }
        }
        return report
    }

    /// Sets the local data aside in a backup, then puts an empty store for `token` in its place
    /// (same model and content name, a new peer ID: the new account's history starts at 1).
    private func reset(to token: String) throws -> (String, String) {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let backup = "\(path).account-\(stamp).backup"
        // Every connection to the old store is closed before its files are replaced: the stores
        // opened here are released when this block ends.
        let (model, contentName): (ManagedModel, String) = try {
            let store = try SyncStore.open(at: path)
            _ = try store.backup(to: backup)
            // The backup is checked before anything goes: it must open and hold the same content.
            let copy = try SyncStore.open(at: backup, readOnly: true)
            guard try copy.contentDigest() == store.contentDigest() else {
                throw MaintenanceError(path: backup, problem: "does not hold the store's content after the backup",
                                       hint: "check the disk; the store was not changed", failureKind: .ioFailure)
            }
            return (store.model, store.metadata.contentName)
        }()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fresh = "\(folder)/.\(URL(fileURLWithPath: path).lastPathComponent).account-\(getpid()).store"
        for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
        let peer = try SyncStore.create(at: fresh, model: model, contentName: contentName, accountToken: token).metadata.peerID
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        try? FileManager.default.removeItem(atPath: path + ".blobs")
        guard rename(fresh, path) == 0 else {
            throw MaintenanceError(path: path, problem: "cannot put the new store in place: \(String(cString: strerror(errno)))",
                                   hint: "the local data is in \(backup); move it back if needed", failureKind: .ioFailure)
        }
        for suffix in ["-wal", "-shm"] { _ = rename(fresh + suffix, path + suffix) }
        DurableFile.syncFolder(folder)
        return (backup, peer)
    }
}
