import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// The newest store format this build reads and writes (`docs/format.md`).
    public static var newestFormat: Int { StoreSchema.formatVersion }

    /// The first format that records bulk imports as insert runs (`_insert_run`, `sk_insert_run`).
    public static var insertRunFormat: Int { StoreSchema.insertRunFormat }

    /// Whether the store records bulk imports as insert runs (format 3 and later): its entity
    /// tables have `_insert_run` and its history `sk_insert_run`. A store of an earlier format
    /// opened read-only has neither; opened for writing it is upgraded first.
    var hasInsertRuns: Bool { metadata.formatVersion >= StoreSchema.insertRunFormat }

    /// The insert changes the insert runs of transaction `tx` stand for, in the order the records
    /// were written (row-id order within each table), tables in name order.
    func insertRunChanges(of tx: Int64, in db: Database) throws -> [HistoryChange] {
        guard hasInsertRuns else { return [] }
        let runs = try Row.fetchAll(db, sql: "SELECT id, entity, properties, first_rowid, last_rowid FROM sk_insert_run WHERE tx = ? ORDER BY id",
                                    arguments: [tx])
        guard !runs.isEmpty else { return [] }
        let decoder = JSONDecoder()
        var byTable: [String: [(id: Int64, entity: String, properties: [String], first: Int64, last: Int64)]] = [:]
        for run in runs {
            func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
                try run.required(column, table: "sk_insert_run", row: "an insert run of transaction \(tx)", store: path)
            }
            let entity: String = try value("entity")
            guard let table = layout.tableOfEntity[entity] else { continue }
            let text: String = try value("properties")
            guard let properties = try? decoder.decode([String].self, from: Data(text.utf8)) else {
                throw StoreError(.damaged, path: path, message: "sk_insert_run, transaction \(tx): the properties of an insert run are not the JSON storekeep writes",
                                 hint: "the store was written around storekeep; restore it from a backup")
            }
            byTable[table, default: []].append((try value("id"), entity, properties, try value("first_rowid"), try value("last_rowid")))
        }
        var changes: [HistoryChange] = []
        for (table, tableRuns) in byTable.sorted(by: { $0.key < $1.key }) {
            let facts = Dictionary(uniqueKeysWithValues: tableRuns.map { ($0.id, ($0.entity, $0.properties)) })
            let ids = tableRuns.map { String($0.id) }.joined(separator: ", ")
            let rows = try Row.fetchCursor(db, sql: """
                SELECT _gid, _insert_run FROM \(table.quotedSQLIdentifier)
                WHERE _rowid BETWEEN ? AND ? AND _insert_run IN (\(ids)) ORDER BY _rowid
                """, arguments: [tableRuns.map(\.first).min() ?? 0, tableRuns.map(\.last).max() ?? 0])
            while let row = try rows.next() {
                guard let run = row.stored(at: 1, as: Int64.self), let (entity, properties) = facts[run] else { continue }
                let gid: String = try row.required("_gid", table: table, row: "a record of insert run \(run)", store: path)
                changes.append(HistoryChange(entity: entity, globalID: GlobalID(gid), kind: .insert, properties: properties))
            }
        }
        return changes
    }

    /// The number of records the insert runs stand for (records inserted by bulk imports and
    /// still in the store; a deleted one's insert has moved to `sk_change`).
    func insertRunRecordCount(in db: Database) throws -> Int {
        guard hasInsertRuns else { return 0 }
        return try db.storedValue(Int.self, sql: "SELECT COALESCE(SUM(records), 0) FROM sk_insert_run",
                                  table: "sk_insert_run", row: "the sum of records", store: path) ?? 0
    }
}

extension StoreTransaction {
    /// Before record `id` of `table` leaves the store: when a bulk import inserted it (its
    /// `_insert_run` is set), writes its insert as an ordinary change of the run's transaction and
    /// counts it out of the run, so that the history keeps the insert once the row is gone.
    func keepInsertOfRecordLeaving(_ id: GlobalID, table: String) throws {
        guard store.hasInsertRuns else { return }
        let quoted = table.quotedSQLIdentifier
        guard let run = try db.storedValue(Int64.self, sql: "SELECT _insert_run FROM \(quoted) WHERE _gid = ?", arguments: [id.rawValue],
                                           table: table, row: "record \(id)", store: store.path) else { return }
        try db.execute(sql: """
            INSERT INTO sk_change (tx, entity, gid, kind, properties, tombstone)
            SELECT tx, entity, ?, 'insert', properties, NULL FROM sk_insert_run WHERE id = ?
            """, arguments: [id.rawValue, run])
        try db.execute(sql: "UPDATE sk_insert_run SET records = records - 1 WHERE id = ?", arguments: [run])
    }
}
