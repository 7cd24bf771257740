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
        try read("read the sync state") { db in
            let local = metadata.peerID
            let hasCounters = try db.columns(in: "sk_peer").contains { $0.name == "last_seq" }
            let issued = hasCounters ? try Int64.fetchOne(db, sql: "SELECT last_seq FROM sk_peer WHERE peer = ?", arguments: [local]) ?? 0 : 0
            let held = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [local]) ?? 0
            let exported = hasCounters ? try Int64.fetchOne(db, sql: "SELECT exported_seq FROM sk_peer WHERE peer = ?", arguments: [local]) ?? 0 : 0
            let values = Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM sk_metadata").compactMap { row -> (String, String)? in
                guard let key: String = row[0], let value: String = row[1] else { return nil }
                return (key, value)
            }, uniquingKeysWith: { first, _ in first })
            var watermarks: [String: Int64] = [:]
            if hasCounters {
                for row in try Row.fetchAll(db, sql: "SELECT peer, last_seq FROM sk_peer WHERE is_local = 0") {
                    if let peer: String = row[0], let last: Int64 = row[1] { watermarks[peer] = last }
                }
            }
            return SyncStatus(localSequence: max(issued, held), exportedSequence: exported, watermarks: watermarks,
                              enabled: values["syncEnabled"] == "1", everEnabled: values[Self.syncContainerKey] != nil,
                              container: values[Self.syncContainerKey],
                              clock: HybridTimestamp(rawValue: values[StoreSchema.clockKey].flatMap { Int64($0) } ?? 0))
        }
    }

    /// Records that this peer's transactions up to `sequence` are published in the current content
    /// name (never moves back).
    public func recordExported(through sequence: Int64) throws {
        try writeSyncState("record what was exported") { db in
            try db.execute(sql: "UPDATE sk_peer SET exported_seq = MAX(exported_seq, ?) WHERE peer = ?", arguments: [sequence, metadata.peerID])
        }
    }

    /// Switches sync on or off; `container` is remembered as the container of the last sync.
    public func setSyncEnabled(_ enabled: Bool, container: String?) throws {
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
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }
}
