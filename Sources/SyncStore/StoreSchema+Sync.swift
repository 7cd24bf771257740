import GRDB

extension StoreSchema {
    /// The first format whose history carries what sync needs (format 4): hybrid clocks,
    /// the values of every local change, a stored sequence counter per peer, property clocks and
    /// delete tombstones.
    static let syncFormat = 4

    /// The `sk_metadata` key holding the largest hybrid clock reading the store has issued or imported.
    static let clockKey = "clock"

    /// The clock reading `text` (the value of ``clockKey``) holds; 0 when the store has none.
    ///
    /// - Throws: ``DamagedValue`` for text that is not a whole number: reading it as 0 would let
    ///   the store issue readings that sort before the ones it has already issued.
    static func clockReading(_ text: String?) throws -> Int64 {
        guard let text else { return 0 }
        guard let reading = Int64(text) else {
            throw DamagedValue(description: "sk_metadata, key \(clockKey): the value '\(text.prefix(80))' is not a clock reading (a whole number)")
        }
        return reading
    }

    /// Creates `sk_seed_mark` (what `seed` has seeded, per seed set and account) when it is absent.
    static func createSeedMarkTable(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sk_seed_mark (
                seed_set TEXT NOT NULL, account TEXT NOT NULL, version INTEGER NOT NULL, applied REAL NOT NULL,
                PRIMARY KEY (seed_set, account)) WITHOUT ROWID
            """)
    }

    /// Adds the format-4 columns and tables to a store of format 3 (a new store gets them the same
    /// way, right after its format-3 tables): nothing is rewritten, and every added column is NULL
    /// or its default in existing rows.
    ///
    /// - `sk_transaction.hlc`: the transaction's hybrid clock reading (NULL before format 4: read as
    ///   its timestamp);
    /// - `sk_change.payload`: the values the change set (``ChangePayload``; NULL before format 4 and
    ///   for imported changes, which are never exported again);
    /// - `sk_peer.last_seq`: for the local peer the last sequence number issued (the stored counter:
    ///   it never goes back, even once old transactions are archived), for another peer the last of
    ///   its transactions imported; `exported_seq`: for the local peer, the last exported into the
    ///   current content name; `last_seen`: when another peer last published its manifest;
    /// - `sk_clock`, `sk_member_clock`: who last set a property, or a to-many membership, by update
    ///   (inserts are read from the history instead: a bulk import writes no clock rows);
    /// - `sk_tombstone`: every deleted record, so that a delete wins over a late insert or update.
    static func addSyncHistory(in db: Database) throws {
        if try !db.columns(in: "sk_transaction").contains(where: { $0.name == "hlc" }) {
            try db.execute(sql: "ALTER TABLE sk_transaction ADD COLUMN hlc INTEGER")
        }
        if try !db.columns(in: "sk_change").contains(where: { $0.name == "payload" }) {
            try db.execute(sql: "ALTER TABLE sk_change ADD COLUMN payload BLOB")
        }
        let peerColumns = Set(try db.columns(in: "sk_peer").map(\.name))
        if !peerColumns.contains("last_seq") {
            try db.execute(sql: "ALTER TABLE sk_peer ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0")
        }
        if !peerColumns.contains("exported_seq") {
            try db.execute(sql: "ALTER TABLE sk_peer ADD COLUMN exported_seq INTEGER NOT NULL DEFAULT 0")
        }
        if !peerColumns.contains("last_seen") {
            try db.execute(sql: "ALTER TABLE sk_peer ADD COLUMN last_seen REAL")
        }
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sk_clock (
                gid TEXT NOT NULL, property TEXT NOT NULL, rank INTEGER NOT NULL, hlc INTEGER NOT NULL, peer TEXT NOT NULL,
                PRIMARY KEY (gid, property)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sk_member_clock (
                relationship TEXT NOT NULL, owner TEXT NOT NULL, target TEXT NOT NULL, present INTEGER NOT NULL,
                rank INTEGER NOT NULL, hlc INTEGER NOT NULL, peer TEXT NOT NULL,
                PRIMARY KEY (relationship, owner, target)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sk_tombstone (
                gid TEXT PRIMARY KEY NOT NULL, entity TEXT NOT NULL, hlc INTEGER NOT NULL, peer TEXT NOT NULL, identity TEXT
            ) WITHOUT ROWID;
            """)
        try createSeedMarkTable(in: db)
        // The counter starts where the history stands; deletes made before format 4 become tombstones.
        try db.execute(sql: """
            INSERT OR IGNORE INTO sk_peer (peer, is_local, first_seen)
                SELECT DISTINCT peer, 0, MIN(timestamp) FROM sk_transaction GROUP BY peer;
            """)
        try HistoryCounters.catchUpWithHistory(allPeers: true, in: db)
        try db.execute(sql: """
            INSERT OR IGNORE INTO sk_tombstone (gid, entity, hlc, peer, identity)
                SELECT c.gid, c.entity, CAST(t.timestamp * 1000 AS INTEGER) << 16, t.peer, c.tombstone
                FROM sk_change c JOIN sk_transaction t ON t.id = c.tx WHERE c.kind = 'delete';
            """)
    }
}
