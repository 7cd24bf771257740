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

    /// The store.
    public let path: String
    /// Seconds to wait for the store's lock while another process holds it.
    public let lockTimeout: Double

    /// Creates the command's engine.
    public init(path: String, lockTimeout: Double = 30) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    /// The store's account.
    public func show() throws -> AccountReport {
        let store = try SyncStore.open(at: path, readOnly: true)
        return AccountReport(store: path, account: store.metadata.accountToken, previous: nil, action: "shown")
    }

    /// Gives the store the account `token`.
    ///
    /// - Throws: ``MaintenanceError`` `badInput` when the store belongs to another account and
    ///   `localData` is `.refuse`, or is a seed store (its read-only seed data belongs to no
    ///   account); `StoreError`.
    public func set(_ token: String, localData: LocalData) throws -> AccountReport {
        guard !token.isEmpty, token.count <= 1_000, !token.contains("\u{0}") else {
            throw MaintenanceError(path: path, problem: "an account token must be 1 to 1,000 characters", failureKind: .usage)
        }
        let lock = try StoreLock.acquire(for: path, command: "storekeep account --set", waitingUpTo: lockTimeout)
        defer { lock.release() }
        let url = URL(fileURLWithPath: path)
        removeLeftoversOfKilledResets(in: url.deletingLastPathComponent().path, name: url.lastPathComponent)
        // Read and released at once: a reset replaces the file, and no connection of this process may stay open on it.
        let metadata = try SyncStore.open(at: path, readOnly: true).metadata
        if let configuration = metadata.seedConfiguration {
            throw MaintenanceError(path: path, problem: "is the seed store of configuration \(configuration): read-only seed data belongs to no account, and is never synced",
                                   hint: "give the user's store beside it (`storekeep account USER-STORE --set TOKEN`); the seed store was not changed",
                                   failureKind: .badInput)
        }
        let previous = metadata.accountToken
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
    ///
    /// Killed at any step, the store is the old one, whole, or the new one, whole: the backup is
    /// checked first; the new store is built complete under a temporary name; the old store is
    /// closed with everything in its main file (its `-wal` and `-shm` go with the last connection,
    /// and a reset is refused while another process keeps them); the new store replaces it in one
    /// rename; only then is the old blob folder moved aside and removed (the backup holds its files).
    private func reset(to token: String) throws -> (String, String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        // A run again within the same second (after a kill) gets a name of its own.
        var backup = "\(path).account-\(stamp).backup"
        for attempt in 2...100 where FileManager.default.fileExists(atPath: backup) || FileManager.default.fileExists(atPath: backup + ".blobs") {
            backup = "\(path).account-\(stamp)-\(attempt).backup"
        }
        // Every connection to the old store is closed before its file is replaced: the stores
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
        try CrashPoint.reach("account.reset.backedUp")
        let fresh = "\(folder)/.\(name).account-\(getpid()).store"
        let peer = try { try SyncStore.create(at: fresh, model: model, contentName: contentName, accountToken: token).metadata.peerID }()
        try CrashPoint.reach("account.reset.created")
        // The last connection to close takes the -wal and -shm with it; they are still there only
        // while another process has the store open.
        if FileManager.default.fileExists(atPath: path + "-wal") || FileManager.default.fileExists(atPath: path + "-shm") {
            for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
            throw MaintenanceError(path: path, problem: "is open in another process (its -wal and -shm files stay after storekeep closed it)",
                                   hint: "close the app that has the store open, then run the same command again; nothing was changed (the backup \(backup) can be removed)",
                                   failureKind: .storeBusy)
        }
        do {
            try DurableFile.publish(fresh, as: path)
        } catch let failure as DurableFile.Failure {
            throw MaintenanceError(path: path, problem: "cannot put the new store in place: \(failure.reason)",
                                   hint: "the store was not changed; its data is also in \(backup)", failureKind: .ioFailure)
        }
        try CrashPoint.reach("account.reset.renamed")
        // The old external values: the new store refers to none, and the backup holds them all.
        let blobs = path + ".blobs"
        let aside = "\(folder)/.\(name).blobs.reset-\(getpid())"
        if (try? DurableFile.move(blobs, to: aside)) != nil {
            try CrashPoint.reach("account.reset.blobsMoved")
            try? FileManager.default.removeItem(atPath: aside)
        }
        return (backup, peer)
    }

    /// Removes what a reset killed part-way left beside the store: its new store under a temporary
    /// name (`.NAME.account-<pid>.store`, with what `SyncStore.create` makes beside it) and the old
    /// blob folder moved aside (`.NAME.blobs.reset-<pid>`, whose files the backup holds), when the
    /// process that made them no longer runs.
    private func removeLeftoversOfKilledResets(in folder: String, name: String) {
        // `.NAME.account-<pid>.store`, `..NAME.account-<pid>.store.creating-<pid>` (SyncStore.create's
        // own temporary name), `.NAME.blobs.reset-<pid>`.
        DeadProcessLeftovers.remove(in: folder, prefixes: [".\(name).account-", "..\(name).account-", ".\(name).blobs.reset-"])
    }
}
