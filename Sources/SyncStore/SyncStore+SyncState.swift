import Foundation
import GRDB

/// Where a store stands with sync: what it has issued and exported, what it has imported.
public struct SyncStatus: Hashable, Sendable, Codable {
    /// The last sequence number this peer has issued.
    public var localSequence: Int64
    /// The last of its transactions exported into the current content name.
    public var exportedSequence: Int64
    /// Per other peer, the last of its transactions imported.
    public var watermarks: [String: Int64]
    /// Whether sync is switched on.
    public var enabled: Bool
    /// Whether sync was ever switched on (a store that was never synced is switched on by its first sync).
    public var everEnabled: Bool
    /// The container of the last sync, when there was one.
    public var container: String?
    /// The largest hybrid clock reading issued or imported.
    public var clock: HybridTimestamp
}

extension SyncStore {
    /// The `sk_metadata` key holding the container of the last sync.
    static let syncContainerKey = "syncContainer"

    /// Where the store stands with sync.
    public func syncStatus() throws -> SyncStatus {
        try read("read the sync state") { db in try syncStatus(in: db) }
    }

    /// Where the store stands with sync, read in `db`.
    func syncStatus(in db: Database) throws -> SyncStatus {
        let local = metadata.peerID
        let hasCounters = try db.columns(in: "sk_peer").contains { $0.name == "last_seq" }
        let issued = hasCounters ? try db.storedValue(Int64.self, sql: "SELECT last_seq FROM sk_peer WHERE peer = ?", arguments: [local],
                                                      table: "sk_peer", row: "peer \(local)", store: path) ?? 0 : 0
        let held = try db.storedValue(Int64.self, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [local],
                                      table: "sk_transaction", row: "the transactions of peer \(local)", store: path) ?? 0
        let exported = hasCounters ? try db.storedValue(Int64.self, sql: "SELECT exported_seq FROM sk_peer WHERE peer = ?", arguments: [local],
                                                        table: "sk_peer", row: "peer \(local)", store: path) ?? 0 : 0
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM sk_metadata") {
            guard let key = try row.optional(at: 0, as: String.self, table: "sk_metadata", row: "a key", store: path) else { continue }
            if values[key] == nil, let value = try row.optional(at: 1, as: String.self, table: "sk_metadata", row: "key \(key)", store: path) {
                values[key] = value
            }
        }
        var watermarks: [String: Int64] = [:]
        if hasCounters {
            for row in try Row.fetchAll(db, sql: "SELECT peer, last_seq FROM sk_peer WHERE is_local = 0") {
                guard let peer = try row.optional(at: 0, as: String.self, table: "sk_peer", row: "a peer", store: path),
                      let last = try row.optional(at: 1, as: Int64.self, table: "sk_peer", row: "peer \(peer)", store: path) else { continue }
                watermarks[peer] = last
            }
        }
        return SyncStatus(localSequence: max(issued, held), exportedSequence: exported, watermarks: watermarks,
                          enabled: values["syncEnabled"] == "1", everEnabled: values[Self.syncContainerKey] != nil,
                          container: values[Self.syncContainerKey],
                          clock: HybridTimestamp(rawValue: try StoreSchema.clockReading(values[StoreSchema.clockKey])))
    }

    /// Records that this peer's transactions up to `sequence` are published in the current content
    /// name (never moves back).
    public func recordExported(through sequence: Int64) throws {
        try writeSyncState("record what was exported") { db in
            try db.execute(sql: "UPDATE sk_peer SET exported_seq = MAX(exported_seq, ?) WHERE peer = ?", arguments: [sequence, metadata.peerID])
        }
    }

    /// Switches sync on or off; `container` is remembered as the container of the last sync.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for a seed store (never synced).
    public func setSyncEnabled(_ enabled: Bool, container: String?) throws {
        try refuseSeedStore("switch sync \(enabled ? "on" : "off")")
        try writeSyncState("switch sync \(enabled ? "on" : "off")") { db in
            try db.execute(sql: "UPDATE sk_metadata SET value = ? WHERE key = 'syncEnabled'", arguments: [enabled ? "1" : "0"])
            if let container {
                try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               arguments: [Self.syncContainerKey, container])
            }
        }
    }

    private func writeSyncState(_ action: String, _ body: (Database) throws -> Void) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            try database.write(body)
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }
}

extension SyncStore {
    /// Moves the store to the content name `name` (a rekey): from now on it syncs there, and its
    /// transactions after `exported` are exported there (those up to it are in the new content
    /// name's baseline). Recorded in the migration history like a migration, with `description`.
    ///
    /// The store's ``metadata`` still says the old name: open the store again to read the new one.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for an unusable name, or for a seed store (never synced).
    public func switchContentName(to name: String, exportedThrough exported: Int64, description: String) throws {
        try refuseSeedStore("move the content name")
        try Self.validate(name: name, what: "content name", path: path)
        let now = Date().timeIntervalSince1970
        try writeSyncState("switch the content name to \(name)") { db in
            try StoreSchema.createMigrationTables(in: db)
            try db.execute(sql: "UPDATE sk_metadata SET value = ? WHERE key = 'contentName'", arguments: [name])
            try db.execute(sql: "UPDATE sk_peer SET exported_seq = ? WHERE peer = ?", arguments: [exported, metadata.peerID])
            try db.execute(sql: """
                INSERT INTO sk_migration (key, version, description, source, checksum, started, finished, rows, rejected, success)
                VALUES (?, ?, ?, ?, '', ?, ?, 0, 0, 1)
                """, arguments: ["rekey:\(metadata.contentName):\(name)", "rekey \(name)", description, metadata.contentName, now, now])
        }
    }
}

extension SyncStore {
    /// The `sk_metadata` key present while a store that kept its local data through an account
    /// change still has to publish a baseline of it into its new account's namespace.
    static let accountBaselineKey = "accountBaselinePending"

    /// Gives the store the account `token` (article 5).
    ///
    /// - Parameter keepingLocalData: the local data becomes the account's, published on the next
    ///   sync: every local transaction is exported again, and a baseline of the whole content is
    ///   written (it holds what came from other peers of the old account too).
    /// - Throws: ``StoreError`` `invalidRequest` for a seed store (its seed data belongs to no account).
    public func setAccount(_ token: String, keepingLocalData: Bool) throws {
        try refuseSeedStore("set an account")
        try writeSyncState("set the account") { db in
            try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES ('accountToken', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [token])
            if keepingLocalData {
                try db.execute(sql: "UPDATE sk_peer SET exported_seq = 0 WHERE peer = ?", arguments: [metadata.peerID])
                try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = '1'",
                               arguments: [Self.accountBaselineKey])
            }
        }
    }

    /// Whether a baseline of the content is still to be published after an account change.
    public func accountBaselinePending() throws -> Bool {
        try read("read the account state") { db in
            try db.storedValue(String.self, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [Self.accountBaselineKey],
                               table: "sk_metadata", row: "key \(Self.accountBaselineKey)", store: path) == "1"
        }
    }

    /// Records that the baseline after an account change was published.
    public func clearAccountBaselinePending() throws {
        try writeSyncState("record the account's baseline") { db in
            try db.execute(sql: "DELETE FROM sk_metadata WHERE key = ?", arguments: [Self.accountBaselineKey])
        }
    }
}

extension SyncStore {
    /// The `sk_metadata` key present from the import that brought other peers' changes in (logs or
    /// a baseline) until the fixes after it were made: set in the import's own SQLite transaction,
    /// so that a run killed between the import and its fixes makes them on the next run.
    static let importFixPendingKey = "importFixPending"

    /// Records, inside an import's write, that its fixes are still to be made.
    static func markImportFixPending(in db: Database) throws {
        try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = '1'",
                       arguments: [importFixPendingKey])
    }

    /// Whether an import's fixes are still to be made (``importFixPendingKey``).
    public func importFixPending() throws -> Bool {
        try read("read the import state") { db in
            try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [Self.importFixPendingKey]) == "1"
        }
    }

    /// Records that the fixes after the imports so far were made.
    public func clearImportFixPending() throws {
        try writeSyncState("record the import's fixes") { db in
            try db.execute(sql: "DELETE FROM sk_metadata WHERE key = ?", arguments: [Self.importFixPendingKey])
        }
    }
}
