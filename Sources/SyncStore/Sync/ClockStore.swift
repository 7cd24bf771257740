import Foundation
import GRDB
import ObjectModel

/// Reads and writes the clocks a merge compares, inside one write transaction.
///
/// A property's clock is its `sk_clock` row (written by every update, and by a merged insert);
/// without one, the record's insert clock: its `sk_clock` row for property `""` (a record saved one
/// by one), else the clock of the transaction whose insert run or insert change holds it; a record
/// whose insert left the history long ago compares as ``PropertyClock/origin``.
struct ClockStore {
    let store: SyncStore
    let db: Database

    /// Whether `id` was deleted (here or by an imported delete).
    func isDeleted(_ id: GlobalID) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sk_tombstone WHERE gid = ?"), arguments: [id.rawValue]) ?? false
    }

    /// The clock of property `name` of `id`.
    func clock(of name: String, of id: GlobalID, table: String) throws -> PropertyClock {
        if let own = try row(id, name) { return own }
        return try insertClock(of: id, table: table)
    }

    /// The clock of `id`'s insert.
    func insertClock(of id: GlobalID, table: String) throws -> PropertyClock {
        if let own = try row(id, "") { return own }
        if store.hasInsertRuns, let run = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT t.hlc, t.peer, t.timestamp FROM sk_insert_run r JOIN sk_transaction t ON t.id = r.tx
            WHERE r.id = (SELECT _insert_run FROM \(table.quotedSQLIdentifier) WHERE _gid = ?)
            """), arguments: [id.rawValue]) {
            return try run.transactionClock(row: "the insert of \(id)", store: store.path)
        }
        if let change = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT t.hlc, t.peer, t.timestamp FROM sk_change c JOIN sk_transaction t ON t.id = c.tx
            WHERE c.gid = ? AND c.kind = 'insert' ORDER BY c.id DESC LIMIT 1
            """), arguments: [id.rawValue]) {
            return try change.transactionClock(row: "the insert of \(id)", store: store.path)
        }
        return .origin
    }

    /// Records `clock` as the insert clock of `id` (an insert merged into an existing record).
    func setInsertClock(of id: GlobalID, to clock: PropertyClock) throws {
        try setClock(of: "", of: id, to: clock)
    }

    /// Records `clock` as the clock of property `name` of `id`.
    func setClock(of name: String, of id: GlobalID, to clock: PropertyClock) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sk_clock (gid, property, rank, hlc, peer) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (gid, property) DO UPDATE SET rank = excluded.rank, hlc = excluded.hlc, peer = excluded.peer
            """).execute(arguments: [id.rawValue, name, clock.rank.rawValue, clock.timestamp.rawValue, clock.peer])
    }

    /// The clock of the membership (`owner`, `target`) of the join `table`.
    func membershipClock(table: String, owner: GlobalID, target: GlobalID) throws -> PropertyClock {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT rank, hlc, peer FROM sk_member_clock WHERE relationship = ? AND owner = ? AND target = ?
            """), arguments: [table, owner.rawValue, target.rawValue]) else { return .origin }
        return try row.propertyClock(at: 0, table: "sk_member_clock", row: "\(table) \(owner) → \(target)", store: store.path)
    }

    /// Records the clock of a membership.
    func setMembershipClock(table: String, owner: GlobalID, target: GlobalID, present: Bool, to clock: PropertyClock) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sk_member_clock (relationship, owner, target, present, rank, hlc, peer) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (relationship, owner, target) DO UPDATE SET
                present = excluded.present, rank = excluded.rank, hlc = excluded.hlc, peer = excluded.peer
            """).execute(arguments: [table, owner.rawValue, target.rawValue, present, clock.rank.rawValue, clock.timestamp.rawValue, clock.peer])
    }

    /// Records the tombstone of `id` (the first delete's clock is kept) and forgets its property clocks.
    func recordDelete(of id: GlobalID, entity: String, clock: PropertyClock, identity: String?) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sk_tombstone (gid, entity, hlc, peer, identity) VALUES (?, ?, ?, ?, ?) ON CONFLICT (gid) DO NOTHING
            """).execute(arguments: [id.rawValue, entity, clock.timestamp.rawValue, clock.peer, identity])
        try db.cachedStatement(sql: "DELETE FROM sk_clock WHERE gid = ?").execute(arguments: [id.rawValue])
    }

    private func row(_ id: GlobalID, _ name: String) throws -> PropertyClock? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT rank, hlc, peer FROM sk_clock WHERE gid = ? AND property = ?"),
                         arguments: [id.rawValue, name])?.propertyClock(at: 0, table: "sk_clock", row: "\(id) \(name)", store: store.path)
    }
}
