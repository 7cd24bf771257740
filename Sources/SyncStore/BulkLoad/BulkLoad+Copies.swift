import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

extension BulkLoad {
    /// The schema name an attached copy source has on the store's connection.
    static let copySourceSchema = "sk_source"

    /// Attaches the SQLite file at `path`, read-only, as the source of ``importCopiedBatch(_:checkpoint:)``,
    /// until ``detachCopySource()``. Nothing is ever written to it.
    ///
    /// - Throws: ``StoreError`` `io` when SQLite cannot attach it, or cannot attach it read-only
    ///   (an SQLite library without URI file names): the caller then writes records one by one.
    public func attachCopySource(at path: String) throws {
        guard !store.isReadOnly else { throw StoreError(.invalidRequest, path: store.path, message: "the store was opened read-only") }
        let uri = "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?mode=ro"
        do {
            try store.database.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS \(Self.copySourceSchema)", arguments: [uri])
                guard sqlite3_db_readonly(db.sqliteConnection, Self.copySourceSchema) == 1 else {
                    try db.execute(sql: "DETACH DATABASE \(Self.copySourceSchema)")
                    throw StoreError(.io, path: path, message: "SQLite did not attach it read-only", hint: "the records are written one by one instead")
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.wrapping(error, path: path, action: "attach a copy source")
        }
    }

    /// Detaches the copy source; does nothing when none is attached.
    public func detachCopySource() {
        _ = try? store.database.writeWithoutTransaction { db in
            if try Self.copySourceIsAttached(db) { try db.execute(sql: "DETACH DATABASE \(Self.copySourceSchema)") }
        }
    }

    /// Whether a copy source is attached (``attachCopySource(at:)``).
    public var hasCopySource: Bool {
        (try? store.database.inDatabase { db in try Self.copySourceIsAttached(db) }) ?? false
    }

    private static func copySourceIsAttached(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_database_list WHERE name = ?", arguments: [copySourceSchema]) == 1
    }

    /// Copies a batch of records from the attached source (``attachCopySource(at:)``) with one
    /// `INSERT … SELECT`, then writes their history (one transaction, its inserts as insert runs,
    /// one per set of non-empty to-one relationships) and the stream's checkpoint, all in one
    /// SQLite transaction, as ``importBatch(_:rejections:checkpoint:checked:blobFiles:)`` does.
    ///
    /// The caller answers for the values being in the store's form (``BulkCopyLayout``): SQLite
    /// copies what the expressions give. A migration digests the same expressions over the source
    /// (``BulkCopyDigester``) and verifies the store afterwards.
    ///
    /// - Throws: ``StoreError``: `invalidRequest` for an entity that cannot be copied, or a global ID
    ///   that already exists (when the store's indexes are built); `damaged` (naming the source) when
    ///   SQLite copies another number of rows than `copy.rows`, which a damaged source file does;
    ///   `io` when SQLite fails.
    public func importCopiedBatch(_ copy: BulkCopy, checkpoint: MigrationCheckpoint) throws {
        let store = self.store, path = store.path
        guard !store.isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        guard let layout = BulkCopyLayout(of: copy.entity, in: store), let plan = store.plans[copy.entity], let table = store.layout.tableOfEntity[copy.entity],
              copy.expressions.count == layout.columnCount else {
            throw StoreError(.invalidRequest, path: path, message: "records of \(copy.entity) cannot be copied with these \(copy.expressions.count) columns")
        }
        do {
            try store.database.write { db in
                let writer = ImportWriter(db: db, store: store, now: Date())
                try writer.beginHistory(author: author)
                guard let runs = writer.runs else { return }
                let before = try StoreError.number(after: try Int64.fetchOne(db, sql: "SELECT MAX(_rowid) FROM \(table.quotedSQLIdentifier)"),
                                                   "the largest row id of \(table)", path: path) - 1
                let base = runs.reserveRunIDs(1 << Int64(layout.toOnes.count))
                let statement = try db.makeStatement(sql: insertSQL(copy, layout: layout, plan: plan, table: table, runBase: base, created: writer.now))
                try statement.execute(arguments: StatementArguments(copy.arguments))
                let copied = Int(sqlite3_changes(db.sqliteConnection))
                guard copied == copy.rows else {
                    // The source is a private copy no one else writes: rows that a count saw and the
                    // copy did not are damage in the file (a table whose rows are out of order, an
                    // index that disagrees with its table).
                    throw StoreError(.damaged, path: copy.sourcePath.isEmpty ? path : copy.sourcePath,
                                     message: "the copy of \(copy.entity) from \(copy.sourceTable) gave \(copied) records, but reading the table gave \(copy.rows): the source file is damaged (SQLite finds other rows depending on how it reads the table)",
                                     hint: "run `sqlite3 <source> 'PRAGMA integrity_check'` to see the damage; restore the source from a backup, or repair a copy of it (sqlite3's .recover) and migrate the copy")
                }
                // One statement numbers its rows on from the largest row id: without to-ones they are all one run.
                let spans = layout.toOnes.isEmpty
                    ? [Row(["run": base, "n": copied, "first": before + 1, "last": before + Int64(copied)])]
                    : try Row.fetchAll(db, sql: """
                        SELECT _insert_run AS run, COUNT(*) AS n, MIN(_rowid) AS first, MAX(_rowid) AS last FROM \(table.quotedSQLIdentifier)
                        WHERE _rowid > ? GROUP BY _insert_run
                        """, arguments: [before])
                for row in spans where copied > 0 {
                    func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
                        try row.required(column, table: table, row: "the rows copied from \(copy.sourceTable)", store: path)
                    }
                    let id: Int64 = try value("run")
                    let properties = Self.copiedProperties(plan: plan, layout: layout, toOneBits: id - base)
                    runs.add(records: try value("n"), from: try value("first"), through: try value("last"),
                             toRun: runs.adoptRun(id: id, entity: copy.entity, properties: properties))
                }
                try writer.finishHistory()
                try recordBatch(rejections: [], checkpoint: checkpoint, in: db)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(.invalidRequest, path: path, message: "a record copied into \(copy.entity) has a global ID that already exists")
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "copy a batch of \(copy.entity)")
        }
    }

    /// `INSERT INTO <table> (<columns>) SELECT <expressions>, <entity>, <created>, <run> FROM <source> WHERE <filter>`.
    private func insertSQL(_ copy: BulkCopy, layout: BulkCopyLayout, plan: EntityPlan, table: String, runBase: Int64, created: Date) -> String {
        let attributeColumns = store.layout.attributeColumns[copy.entity] ?? [:]
        var columns = ["_gid", "_seed_set", "_seed_version"]
        columns += layout.attributes.map { attributeColumns[$0.name] ?? "" }
        columns += plan.toOne.map(\.column)
        columns += plan.toOne.compactMap(\.order)
        columns += ["_entity", "_created", "_insert_run"]
        let targets = copy.expressions[(3 + layout.attributes.count)...].prefix(layout.toOnes.count)
        let run = ([String(runBase)] + targets.enumerated().map { "(\(1 << $0.offset) * ((\($0.element)) IS NOT NULL))" }).joined(separator: " + ")
        let selected = copy.expressions.map { "(\($0))" } + [copy.entity.quotedSQLLiteral, "\(created.timeIntervalSince1970)", run]
        return """
            INSERT INTO \(table.quotedSQLIdentifier) (\(columns.map(\.quotedSQLIdentifier).joined(separator: ", ")))
            SELECT \(selected.joined(separator: ", ")) FROM \(Self.copySourceSchema).\(copy.sourceTable.quotedSQLIdentifier) WHERE \(copy.filter)
            """
    }

    /// The history properties of a copied record whose non-empty to-ones are the bits of
    /// `toOneBits`: every attribute (all are given), the defaulted ones, and those to-ones.
    private static func copiedProperties(plan: EntityPlan, layout: BulkCopyLayout, toOneBits: Int64) -> String {
        var names = Set(layout.attributes.map(\.name)).union(plan.defaultedAttributes)
        for (index, toOne) in layout.toOnes.enumerated() where toOneBits & (1 << Int64(index)) != 0 { names.insert(toOne.name) }
        return HistoryPropertiesCache.json(names)
    }
}
