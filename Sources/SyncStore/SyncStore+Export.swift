import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Reads up to `limit` live records of exactly `entity` (not its sub-entities) whose row id is
    /// greater than `rowID`, in row-id order, as records another store can import unchanged.
    ///
    /// Row ids are stable while the store is not written, so a migration reading a store opened
    /// read-only can resume after the last row id it committed.
    ///
    /// ```swift
    /// var after: Int64 = 0
    /// while case let page = try store.exportRecords(of: "Speech", afterRowID: after, limit: 500), !page.isEmpty {
    ///     after = page.last!.rowID
    /// }
    /// ```
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for an unknown entity; `damaged` for a missing blob file.
    public func exportRecords(of entity: String, afterRowID rowID: Int64, limit: Int) throws -> [ExportedRecord] {
        guard let plan = plans[entity], let table = layout.tableOfEntity[entity] else {
            throw StoreError(.invalidRequest, path: path, message: "there is no entity named '\(entity)' in model \(model.versionName)")
        }
        return try read("export records") { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM \(table.quotedSQLIdentifier) WHERE _entity = ? AND _rowid > ? ORDER BY _rowid LIMIT ?",
                arguments: [entity, rowID, max(limit, 0)])
            let transaction = StoreTransaction(db: db, store: self, now: Date())
            return try rows.map { row in
                let stored = try makeRecord(from: row)
                var toOneOrder: [String: Int64] = [:]
                for relationship in plan.toOne {
                    if let column = relationship.order, let order = row.stored(column, as: Int64.self) { toOneOrder[relationship.name] = order }
                }
                var toMany: [String: [GlobalID]] = [:]
                for name in plan.joinedToMany.sorted() {
                    let members = try transaction.members(of: name, of: stored.globalID, entity: entity)
                    if !members.isEmpty { toMany[name] = members }
                }
                let record = ImportRecord(entity: entity, globalID: stored.globalID, values: AttributeValues(stored.values), toOne: stored.toOne,
                                          toOneOrder: toOneOrder, toMany: toMany, seed: stored.seed)
                return ExportedRecord(rowID: try row.required("_rowid", table: table, row: "record \(stored.globalID)", store: path), record: record)
            }
        }
    }
}
