import GRDB
import ObjectModel

/// Creates the tables of a new store (the layout `docs/format.md` documents).
enum StoreSchema {
    /// The store format this build writes and reads.
    static let formatVersion = 4

    /// The first format whose entity tables have the `_insert_run` column and whose history has
    /// `sk_insert_run` (the history of a bulk import without a change row per record).
    static let insertRunFormat = 3

    /// The `sk_metadata` key present while a store's secondary indexes are not built yet (a store
    /// created for a bulk load: ``create(in:model:layout:deferIndexes:)``).
    static let indexesPendingKey = "indexesPending"

    /// Creates every table for `model` and records the column mapping in `sk_column`.
    ///
    /// - Parameter deferIndexes: leave out the secondary indexes (the unique `_gid` index among them)
    ///   and mark the store with ``indexesPendingKey``, for a bulk load that builds them once at the
    ///   end with ``createIndexes(in:layout:)``: SQLite builds an index from sorted keys far faster
    ///   than it keeps one up to date under random inserts.
    static func create(in db: Database, model: ManagedModel, layout: StoreLayout, deferIndexes: Bool = false) throws {
        try db.execute(sql: """
            CREATE TABLE sk_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT) WITHOUT ROWID;
            CREATE TABLE sk_model (version TEXT NOT NULL, hash TEXT NOT NULL, definition TEXT NOT NULL);
            CREATE TABLE sk_column (
                entity TEXT NOT NULL, property TEXT NOT NULL, kind TEXT NOT NULL,
                table_name TEXT NOT NULL, column_name TEXT NOT NULL, order_column TEXT,
                PRIMARY KEY (entity, property)) WITHOUT ROWID;
            CREATE TABLE sk_transaction (
                id INTEGER PRIMARY KEY, peer TEXT NOT NULL, seq INTEGER NOT NULL,
                author TEXT NOT NULL, timestamp REAL NOT NULL, UNIQUE (peer, seq));
            CREATE TABLE sk_change (
                id INTEGER PRIMARY KEY, tx INTEGER NOT NULL, entity TEXT NOT NULL, gid TEXT NOT NULL,
                kind TEXT NOT NULL, properties TEXT NOT NULL, tombstone TEXT);
            CREATE TABLE sk_peer (peer TEXT PRIMARY KEY NOT NULL, is_local INTEGER NOT NULL, first_seen REAL NOT NULL) WITHOUT ROWID;
            """)
        try createInsertRunTable(in: db)
        try createMigrationTables(in: db)
        try addSyncHistory(in: db)
        for root in model.rootEntities {
            guard let table = layout.tableOfEntity[root.name] else { continue }
            var columns = [
                "_rowid INTEGER PRIMARY KEY", "_gid TEXT NOT NULL", "_entity TEXT NOT NULL",
                "_created REAL NOT NULL", "_updated REAL", "_seed_set TEXT", "_seed_version INTEGER", "_insert_run INTEGER",
            ]
            let extra = layout.tableColumns[table] ?? []
            columns += extra.map { "\($0.name.quotedSQLIdentifier) \($0.type)" }
            try db.execute(sql: "CREATE TABLE \(table.quotedSQLIdentifier) (\(columns.joined(separator: ", ")))")
        }
        for table in layout.joinTables {
            try db.execute(sql: """
                CREATE TABLE \(table.quotedSQLIdentifier) (
                    owner TEXT NOT NULL, target TEXT NOT NULL, owner_order INTEGER, target_order INTEGER,
                    PRIMARY KEY (owner, target)) WITHOUT ROWID
                """)
        }
        try recordColumns(in: db, model: model, layout: layout)
        if deferIndexes {
            try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, '1')", arguments: [indexesPendingKey])
        } else {
            try createIndexes(in: db, layout: layout)
        }
    }

    /// Creates the secondary indexes of the record, join and history tables (each only when absent)
    /// and clears ``indexesPendingKey``.
    ///
    /// - Throws: `DatabaseError` with `SQLITE_CONSTRAINT` when two records share a global ID.
    static func createIndexes(in db: Database, layout: StoreLayout) throws {
        try createGlobalIDIndexes(in: db, layout: layout)
        for table in Set(layout.tableOfEntity.values).sorted() {
            let quoted = table.quotedSQLIdentifier
            if layout.sharedTables.contains(table) {
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(table)__entity".quotedSQLIdentifier) ON \(quoted) (_entity)")
            }
            for column in layout.tableColumns[table] ?? [] where column.name.hasPrefix("r_") {
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(table)_\(column.name)".quotedSQLIdentifier) ON \(quoted) (\(column.name.quotedSQLIdentifier))")
            }
        }
        for table in layout.joinTables {
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(table)_target".quotedSQLIdentifier) ON \(table.quotedSQLIdentifier) (target)")
        }
        try db.execute(sql: """
            CREATE INDEX IF NOT EXISTS sk_change_tx ON sk_change (tx);
            CREATE INDEX IF NOT EXISTS sk_change_gid ON sk_change (gid);
            """)
        try db.execute(sql: "DELETE FROM sk_metadata WHERE key = ?", arguments: [indexesPendingKey])
    }

    /// Creates the unique `_gid` index of every entity table (each only when absent).
    ///
    /// - Throws: `DatabaseError` with `SQLITE_CONSTRAINT` when two records share a global ID.
    static func createGlobalIDIndexes(in db: Database, layout: StoreLayout) throws {
        for table in Set(layout.tableOfEntity.values).sorted() {
            try db.execute(sql: "CREATE UNIQUE INDEX IF NOT EXISTS \(gidIndexName(of: table).quotedSQLIdentifier) ON \(table.quotedSQLIdentifier) (_gid)")
        }
    }

    /// The name of the unique `_gid` index of an entity table.
    static func gidIndexName(of table: String) -> String { "\(table)__gid" }

    /// Creates the tables added in format 2: the migration history and batch checkpoints.
    static func createMigrationTables(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sk_migration (
                id INTEGER PRIMARY KEY, key TEXT NOT NULL, version TEXT NOT NULL, description TEXT NOT NULL,
                source TEXT NOT NULL, checksum TEXT NOT NULL, started REAL NOT NULL, finished REAL,
                rows INTEGER NOT NULL DEFAULT 0, rejected INTEGER NOT NULL DEFAULT 0, success INTEGER);
            CREATE INDEX IF NOT EXISTS sk_migration_key ON sk_migration (key);
            CREATE TABLE IF NOT EXISTS sk_checkpoint (
                migration INTEGER NOT NULL, stream TEXT NOT NULL, position INTEGER NOT NULL,
                rows INTEGER NOT NULL, rejected INTEGER NOT NULL, digest TEXT NOT NULL,
                PRIMARY KEY (migration, stream)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sk_rejected (
                id INTEGER PRIMARY KEY, migration INTEGER NOT NULL, stream TEXT NOT NULL, position INTEGER NOT NULL,
                entity TEXT NOT NULL, reason TEXT NOT NULL);
            """)
        try createMigrationFileTable(in: db)
    }

    /// Creates `sk_migration_file` (the mapping and step files of each migration run) when it is absent.
    ///
    /// Added within format 2 without a version bump: it is optional, a store without it simply
    /// records no files, and older builds ignore it.
    static func createMigrationFileTable(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sk_migration_file (
                migration INTEGER NOT NULL, path TEXT NOT NULL, checksum TEXT NOT NULL,
                PRIMARY KEY (migration, path)) WITHOUT ROWID
            """)
    }

    /// Creates `sk_insert_run`, the history of records a bulk import inserted (format 3): one row
    /// per transaction, entity and set of properties, named by the records' `_insert_run` column.
    static func createInsertRunTable(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sk_insert_run (
                id INTEGER PRIMARY KEY, tx INTEGER NOT NULL, entity TEXT NOT NULL, properties TEXT NOT NULL,
                first_rowid INTEGER NOT NULL, last_rowid INTEGER NOT NULL, records INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS sk_insert_run_tx ON sk_insert_run (tx);
            """)
    }

    /// Brings a store of an earlier format up to ``formatVersion`` (called when it is opened for writing).
    ///
    /// Every step adds tables or columns and rewrites no row: an upgrade takes milliseconds on a
    /// store of any size. Records written before it keep their history in `sk_change`.
    static func upgrade(in db: Database, from format: Int, layout: StoreLayout) throws {
        if format < 2 { try createMigrationTables(in: db) }
        if format < insertRunFormat {
            for table in Set(layout.tableOfEntity.values).sorted() where try db.tableExists(table) {
                // Bound, not interpolated: GRDB's `columns(in:)` quotes the name without doubling a `"`.
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                if !columns.contains("_insert_run") {
                    try db.execute(sql: "ALTER TABLE \(table.quotedSQLIdentifier) ADD COLUMN _insert_run INTEGER")
                }
            }
            try createInsertRunTable(in: db)
        }
        if format < syncFormat { try addSyncHistory(in: db) }
        try db.execute(sql: "UPDATE sk_metadata SET value = ? WHERE key = 'formatVersion'", arguments: [String(formatVersion)])
    }

    private static func recordColumns(in db: Database, model: ManagedModel, layout: StoreLayout) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO sk_column (entity, property, kind, table_name, column_name, order_column) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for stored in StoreLayoutDescription(layout, model: model).allProperties {
            try insert.execute(arguments: [stored.entity, stored.property, stored.kind.rawValue, stored.table, stored.column, stored.orderColumn])
        }
    }
}
