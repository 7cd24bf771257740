import Foundation
import GRDB

/// What identifies one transaction of a peer's sequence: its clock reading, wall-clock time and
/// author. Two copies of a store that went separate ways (one restored from a backup) give the
/// same sequence number to different transactions; these tell them apart.
public struct TransactionStamp: Hashable, Sendable {
    /// The hybrid clock reading (for a transaction recorded before format 4: read from its time).
    public var clock: HybridTimestamp
    /// Seconds since 1970.
    public var date: Double
    /// The history author.
    public var author: String

    /// Creates a stamp.
    public init(clock: HybridTimestamp, date: Double, author: String) {
        self.clock = clock
        self.date = date
        self.author = author
    }
}

extension SyncStore {
    /// The stamps of this peer's own transactions numbered `first` through `last` that the history holds.
    public func localTransactionStamps(from first: Int64, through last: Int64) throws -> [Int64: TransactionStamp] {
        try read("read the history") { db in
            var result: [Int64: TransactionStamp] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT seq, hlc, timestamp, author FROM sk_transaction WHERE peer = ? AND seq BETWEEN ? AND ?
                """, arguments: [metadata.peerID, first, last]) {
                // Whatever a store file holds is read as a stored value: a text or a real where
                // storekeep writes an integer is a `damaged` error naming it, never a crash.
                let place = { "the transaction of peer \(self.metadata.peerID) numbered \(row[0] as DatabaseValue)" }
                guard let sequence = try row.optional(at: 0, as: Int64.self, table: "sk_transaction", row: place(), store: path) else { continue }
                let date = try row.optional(at: 2, as: Double.self, table: "sk_transaction", row: place(), store: path) ?? 0
                let clock = try row.optional(at: 1, as: Int64.self, table: "sk_transaction", row: place(), store: path)
                    .map(HybridTimestamp.init(rawValue:)) ?? HybridTimestamp(date: Date(timeIntervalSince1970: date))
                let author = try row.optional(at: 3, as: String.self, table: "sk_transaction", row: place(), store: path) ?? ""
                result[sequence] = TransactionStamp(clock: clock, date: date, author: author)
            }
            return result
        }
    }

    /// Gives the store a new peer ID, keeping the old one for the transactions it shares with what
    /// the old ID published: the way on for a store restored from a backup, whose transactions after
    /// `shared` are not the ones its peer ID published under those numbers.
    ///
    /// In one SQLite transaction: the old peer becomes another peer, imported up to `shared`; the
    /// store's own transactions after `shared` are numbered again from 1 under `newPeerID`, and the
    /// clocks they set (property, membership and delete clocks, read after the clock of
    /// transaction `shared`) name `newPeerID`. Recorded in the migration history. Open the store
    /// again to read the new ``metadata``.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for an unusable or taken peer ID.
    public func continueUnderNewPeerID(_ newPeerID: String, sharedThrough shared: Int64) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        try Self.validate(name: newPeerID, what: "peer ID", path: path)
        let old = metadata.peerID
        let now = Date().timeIntervalSince1970
        do {
            try database.write { db in
                guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_peer WHERE peer = ?", arguments: [newPeerID]) == 0,
                      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sk_transaction WHERE peer = ?", arguments: [newPeerID]) == 0 else {
                    throw StoreError(.invalidRequest, path: path, message: "peer ID \(newPeerID) is already known to this store",
                                     hint: "choose a peer ID no device of this content name has used")
                }
                let issued = try HistoryCounters.lastIssued(by: old, in: db, path: path)
                let boundary = try Row.fetchOne(db, sql: "SELECT hlc, timestamp, seq FROM sk_transaction WHERE peer = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
                                                arguments: [old, shared])
                let place = { "the transaction of peer \(old) numbered \(boundary?[2] as DatabaseValue? ?? .null)" }
                let sharedClock = try boundary?.optional(at: 0, as: Int64.self, table: "sk_transaction", row: place(), store: path)
                    ?? boundary?.optional(at: 1, as: Double.self, table: "sk_transaction", row: place(), store: path)
                        .map { HybridTimestamp(date: Date(timeIntervalSince1970: $0)).rawValue } ?? 0
                try db.execute(sql: "UPDATE sk_transaction SET peer = ?, seq = seq - ? WHERE peer = ? AND seq > ?",
                               arguments: [newPeerID, shared, old, shared])
                for table in ["sk_clock", "sk_member_clock", "sk_tombstone"] {
                    try db.execute(sql: "UPDATE \(table) SET peer = ? WHERE peer = ? AND hlc > ?", arguments: [newPeerID, old, sharedClock])
                }
                try db.execute(sql: "UPDATE sk_peer SET is_local = 0, last_seq = ?, exported_seq = 0 WHERE peer = ?", arguments: [shared, old])
                try db.execute(sql: "INSERT INTO sk_peer (peer, is_local, first_seen, last_seq, exported_seq) VALUES (?, 1, ?, ?, 0)",
                               arguments: [newPeerID, now, issued - shared])
                try db.execute(sql: "UPDATE sk_metadata SET value = ? WHERE key = 'peerID'", arguments: [newPeerID])
                try StoreSchema.createMigrationTables(in: db)
                try db.execute(sql: """
                    INSERT INTO sk_migration (key, version, description, source, checksum, started, finished, rows, rejected, success)
                    VALUES (?, ?, ?, ?, '', ?, ?, 0, 0, 1)
                    """, arguments: ["peer:\(old):\(newPeerID)", "peer \(newPeerID)",
                                     "peer ID \(old) → \(newPeerID) after transaction \(shared) (a store restored from a backup)", old, now, now])
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, action: "give the store a new peer ID")
        }
    }
}

extension SyncStore {
    /// The `sk_metadata` key listing (JSON) the model version hashes the store's content was kept
    /// under before a migration brought it to its model.
    static let modelLineageKey = "migratedFromModelHashes"

    /// The model version hashes the store's content was migrated from, oldest last (empty for a
    /// store never migrated from another storekeep store).
    public func modelLineage() throws -> [String] {
        try read("read the model lineage") { db in
            guard let text = try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [Self.modelLineageKey]),
                  let hashes = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
            return hashes
        }
    }

    /// Adds `hashes` (the source's model version hash, then its own lineage) to the lineage.
    public func recordModelLineage(_ hashes: [String]) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        var lineage = try modelLineage()
        for hash in hashes where !lineage.contains(hash) && hash != metadata.modelHash { lineage.append(hash) }
        let text = String(decoding: try JSONEncoder().encode(lineage), as: UTF8.self)
        do {
            try database.write { db in
                try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               arguments: [Self.modelLineageKey, text])
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, action: "record the model lineage")
        }
    }
}
