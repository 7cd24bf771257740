import GRDB
import ObjectModel

extension SyncStore {
    /// Whether the store's secondary indexes are still to be built (a bulk load into it has not
    /// finished: ``create(at:model:contentName:peerID:accountToken:deferIndexes:)``).
    public func hasPendingIndexes() throws -> Bool {
        try read("read the store's metadata") { db in
            try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [StoreSchema.indexesPendingKey]) != nil
        }
    }

    /// Builds the indexes a bulk load left out, in one transaction, and clears the mark; does
    /// nothing when none are pending (``BulkLoad/buildIndexes()``, and opening a store for writing).
    ///
    /// SQLite sorts the keys of each index once (with a somewhat larger cache while it runs), which
    /// is what makes the bulk load fast.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` naming the global IDs that more than one record
    ///   holds (nothing is changed: the store keeps its mark); `io` when SQLite fails.
    func buildPendingIndexes() throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        guard try hasPendingIndexes() else { return }
        do {
            try database.inDatabase { db in
                // 4 MiB of pages for the sort, released when done: peak memory stays within 64 MiB, and on two
                // cores a sorter thread (PRAGMA threads) measured slower than none, as it competes with the rest.
                try db.execute(sql: "PRAGMA cache_size = -4096")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                try db.inTransaction {
                    do {
                        try StoreSchema.createIndexes(in: db, layout: layout)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        // Only the unique `_gid` index can fail this way: say which IDs repeat.
                        throw StoreError(
                            .invalidRequest, path: path,
                            message: "more than one record has the same global ID: \(try duplicateGlobalIDs(in: db) ?? "(not found again)")",
                            hint: "each record needs its own ID: correct the source so that its IDs are unique, then migrate into a new target")
                    }
                    return .commit
                }
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "build the store's indexes")
        }
    }

    /// A description of up to five global IDs held by more than one record, or `nil` when every ID is
    /// unique (a sort of every table: only called once the unique index failed).
    private func duplicateGlobalIDs(in db: Database) throws -> String? {
        var found: [String] = []
        for table in Set(layout.tableOfEntity.values).sorted() where found.count < 5 {
            let rows = try Row.fetchAll(db, sql: """
                SELECT _gid, COUNT(*) AS n, MIN(_entity) AS entity FROM \(table.quotedSQLIdentifier)
                GROUP BY _gid HAVING n > 1 LIMIT \(5 - found.count)
                """)
            found += rows.map { row in
                "\(row.stored("_gid", as: String.self) ?? "NULL") (\(row.stored("n", as: Int.self) ?? 0) records of \(row.stored("entity", as: String.self) ?? "?"))"
            }
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }
}
