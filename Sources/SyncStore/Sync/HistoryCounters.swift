import Foundation
import GRDB

/// The one place a store hands out sequence numbers and hybrid clock readings, inside the write
/// transaction that uses them.
///
/// A peer's sequence is a stored counter (`sk_peer.last_seq`), not `MAX(seq) + 1`: once old
/// transactions are archived the largest remaining number would be smaller, and numbers would be
/// issued twice. The counter also never falls behind what the history holds.
enum HistoryCounters {
    /// The next sequence number of the local `peer`, recorded as issued.
    static func nextSequence(of peer: String, in db: Database, path: String) throws -> Int64 {
        // A crafted Int64.max would make the next number overflow (SQLite would turn it into a real).
        let next = try StoreError.number(after: try lastIssued(by: peer, in: db, path: path), "the local peer's last sequence number", path: path)
        guard try Int64.fetchOne(db, sql: "UPDATE sk_peer SET last_seq = ? WHERE peer = ? RETURNING last_seq", arguments: [next, peer]) != nil else {
            try db.execute(sql: "INSERT INTO sk_peer (peer, is_local, first_seen, last_seq) VALUES (?, 1, ?, ?)",
                           arguments: [peer, Date().timeIntervalSince1970, next])
            return next
        }
        return next
    }

    /// The last sequence number `peer` has issued: its counter, or the largest number the history
    /// holds when the counter is behind it (a store written around storekeep, an old format).
    static func lastIssued(by peer: String, in db: Database, path: String) throws -> Int64 {
        let held = try db.storedValue(Int64.self, sql: "SELECT MAX(seq) FROM sk_transaction WHERE peer = ?", arguments: [peer],
                                      table: "sk_transaction", row: "the transactions of peer \(peer)", store: path) ?? 0
        let counter = try db.storedValue(Int64.self, sql: "SELECT last_seq FROM sk_peer WHERE peer = ?", arguments: [peer],
                                         table: "sk_peer", row: "peer \(peer)", store: path) ?? 0
        return max(held, counter)
    }

    /// Moves the counters of the local peer (or, with `allPeers`, of every peer) up to the largest
    /// sequence number the history holds for it, in SQL: the same rule as ``lastIssued(by:in:path:)``,
    /// for a store upgraded to format 4 and for `repair`.
    ///
    /// - Returns: whether any counter moved.
    @discardableResult
    static func catchUpWithHistory(allPeers: Bool, in db: Database) throws -> Bool {
        try db.execute(sql: """
            UPDATE sk_peer SET last_seq = MAX(last_seq, COALESCE((SELECT MAX(seq) FROM sk_transaction t WHERE t.peer = sk_peer.peer), 0))
            \(allPeers ? "" : "WHERE is_local != 0")
            """)
        return db.changesCount > 0
    }

    /// The hybrid clock reading of a new local transaction, recorded as the store's latest.
    static func nextClock(now: Date, in db: Database) throws -> HybridTimestamp {
        let next = try HybridTimestamp.next(after: try latestClock(in: db), now: now)
        try record(next, in: db)
        return next
    }

    /// Moves the store's clock up to `seen` (a reading imported from another peer), so that every
    /// later local transaction reads after it.
    static func observe(_ seen: HybridTimestamp, in db: Database) throws {
        if seen > (try latestClock(in: db)) { try record(seen, in: db) }
    }

    /// The largest reading the store has issued or imported.
    static func latestClock(in db: Database) throws -> HybridTimestamp {
        let row = try Row.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [StoreSchema.clockKey])
        guard let value = row.map({ $0[0] as DatabaseValue }), !value.isNull else { return HybridTimestamp(rawValue: 0) }
        guard let text = String.fromDatabaseValue(value) else {
            throw DamagedValue(description: "sk_metadata, key \(StoreSchema.clockKey): holds \("\(value)".prefix(80)), not a clock reading")
        }
        return HybridTimestamp(rawValue: try StoreSchema.clockReading(text))
    }

    private static func record(_ clock: HybridTimestamp, in db: Database) throws {
        try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [StoreSchema.clockKey, String(clock.rawValue)])
    }
}

extension HistoryCounters {
    /// A new local history transaction: its row in `sk_transaction`, with the next sequence number
    /// and clock reading.
    static func beginLocalTransaction(peer: String, author: String, now: Date, in db: Database, path: String) throws -> LocalTransactionRow {
        let sequence = try nextSequence(of: peer, in: db, path: path)
        let clock = try nextClock(now: now, in: db)
        try db.execute(sql: "INSERT INTO sk_transaction (peer, seq, author, timestamp, hlc) VALUES (?, ?, ?, ?, ?)",
                       arguments: [peer, sequence, author, now.timeIntervalSince1970, clock.rawValue])
        return LocalTransactionRow(id: db.lastInsertedRowID, sequence: sequence, clock: clock)
    }
}

/// A local transaction's row in `sk_transaction`, its sequence number and clock reading.
struct LocalTransactionRow {
    let id: Int64
    let sequence: Int64
    let clock: HybridTimestamp
}
