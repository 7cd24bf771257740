import GRDB

/// The insert runs of one bulk-import transaction while its records are written: which run each
/// (entity, set of properties) has, and where the run's records lie in the entity's table.
///
/// A bulk import (``BulkLoad/importBatch(_:rejections:checkpoint:checked:blobFiles:)``)
/// records its inserts as runs rather than as one `sk_change` row per record
/// (`docs/format.md#history-sk_transaction-sk_change-sk_insert_run`): every record carries the
/// run's id in `_insert_run`, and the ledger writes one `sk_insert_run` row per run when the
/// batch ends. Run ids are handed out from the largest existing id, so records can be written
/// with their run before the run's row exists, in the same SQLite transaction.
final class InsertRunLedger {
    /// One run: its id, its entity and properties, and what its records span so far.
    private struct Run {
        let id: Int64
        let entity: String
        let properties: String
        var firstRowID = Int64.max
        var lastRowID = Int64.min
        var records = 0
    }

    /// The history transaction the runs belong to.
    let transaction: Int64
    @exclusivity(unchecked) private var runs: [Run] = []
    @exclusivity(unchecked) private var nextID: Int64

    /// Starts the ledger of `transaction`, taking run ids after the largest in `sk_insert_run`.
    init(db: Database, transaction: Int64, path: String) throws {
        self.transaction = transaction
        nextID = try StoreError.number(after: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM sk_insert_run"), "the largest insert run id", path: path)
    }

    /// The position of the run of `entity` records setting `properties` (a JSON array), opened
    /// when it is the first such record of the batch. A batch has a handful of runs.
    func run(entity: String, properties: String) -> Int {
        if let index = runs.lastIndex(where: { $0.properties == properties && $0.entity == entity }) { return index }
        runs.append(Run(id: nextID, entity: entity, properties: properties))
        nextID += 1
        return runs.count - 1
    }

    /// Sets `count` run ids aside and returns the first: a SQL copy computes each record's run as
    /// this base plus a number below `count` (``adoptRun(id:entity:properties:)`` then opens the
    /// runs that received records).
    func reserveRunIDs(_ count: Int64) -> Int64 {
        let base = nextID
        nextID += count
        return base
    }

    /// The position of the run with id `id`, opened with `entity` and `properties` when new.
    func adoptRun(id: Int64, entity: String, properties: String) -> Int {
        if let index = runs.lastIndex(where: { $0.id == id }) { return index }
        runs.append(Run(id: id, entity: entity, properties: properties))
        return runs.count - 1
    }

    /// The id of the run at `position` (from ``run(entity:properties:)``).
    func id(ofRun position: Int) -> Int64 { runs[position].id }

    /// The run at `position` has one more record, at `rowID`.
    func add(rowID: Int64, toRun position: Int) {
        runs[position].firstRowID = min(runs[position].firstRowID, rowID)
        runs[position].lastRowID = max(runs[position].lastRowID, rowID)
        runs[position].records += 1
    }

    /// The run at `position` has `records` more records, between `firstRowID` and `lastRowID`.
    func add(records: Int, from firstRowID: Int64, through lastRowID: Int64, toRun position: Int) {
        guard records > 0 else { return }
        runs[position].firstRowID = min(runs[position].firstRowID, firstRowID)
        runs[position].lastRowID = max(runs[position].lastRowID, lastRowID)
        runs[position].records += records
    }

    /// Writes one `sk_insert_run` row per run that received records.
    func finish(db: Database) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO sk_insert_run (id, tx, entity, properties, first_rowid, last_rowid, records) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for run in runs where run.records > 0 {
            try insert.execute(arguments: [run.id, transaction, run.entity, run.properties, run.firstRowID, run.lastRowID, run.records])
        }
    }
}
