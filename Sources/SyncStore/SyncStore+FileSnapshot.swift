import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Calls `body` while the store's database file holds the whole content and cannot change: the
    /// write-ahead log is folded into it (`wal_checkpoint(TRUNCATE)`) and a read transaction is
    /// held, so no later commit reaches the file before `body` returns (a checkpoint never copies
    /// frames past a reader's mark, and this reader's mark is the empty log). A copy of the file
    /// taken in `body` is a consistent store; it is what a snapshot baseline is made of.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for a seed store or a store opened read-only,
    ///   `busy` when another connection keeps the log from being folded in (the app has the store
    ///   open: close it, or use the store's own sync); `damaged` when a record refers to a blob
    ///   file that is missing.
    public func withFileSnapshot<T>(_ body: (StoreFileSnapshot) throws -> T) throws -> T {
        try refuseSeedStore("write a baseline")
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.writeWithoutTransaction { db in
                let wal = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal"
                // Another process may commit between the checkpoint and the start of the read: then
                // the log is not empty under the read, and the checkpoint is tried again.
                for _ in 0..<3 {
                    if wal {
                        let result = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                        let busy: Int64? = result?[0]
                        guard busy == 0 else { break }
                    }
                    try db.execute(sql: "BEGIN DEFERRED")
                    var committed = false
                    defer { if !committed { try? db.execute(sql: "COMMIT") } }
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                    var facts = stat()
                    if wal, stat(path + "-wal", &facts) == 0, facts.st_size > 0 {
                        try db.execute(sql: "COMMIT")
                        committed = true
                        continue
                    }
                    return try body(try makeFileSnapshot(in: db))
                }
                throw StoreError(.busy, path: path, message: "another connection keeps the store's write-ahead log from being folded into it",
                                 hint: "close the app or process that has the store open, then run the command again")
            }
        } catch let error as StoreError {
            throw error
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "hold the store still for a copy")
        }
    }

    private func makeFileSnapshot(in db: Database) throws -> StoreFileSnapshot {
        // A table that holds one entity is counted whole (SQLite counts its smallest index);
        // one shared by an entity hierarchy, entity by entity.
        var entitiesOfTable: [String: [String]] = [:]
        for entity in model.entities.map(\.name).sorted() {
            guard let schema = syncSchemas[entity], let plan = plans[entity], !plan.isAbstract else { continue }
            entitiesOfTable[schema.table, default: []].append(entity)
        }
        let tablesSharedByOtherEntities = Set(model.entities.compactMap { entity in
            layout.tableOfEntity[entity.name].flatMap { table in entitiesOfTable[table]?.contains(entity.name) == false ? table : nil }
        })
        var records = 0
        for (table, entities) in entitiesOfTable.sorted(by: { $0.key < $1.key }) {
            if entities.count == 1, !tablesSharedByOtherEntities.contains(table) {
                records += try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedSQLIdentifier)") ?? 0
                continue
            }
            for entity in entities {
                records += try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedSQLIdentifier) WHERE _entity = ?", arguments: [entity]) ?? 0
            }
        }
        let memberships = try Int.fetchOne(db, sql: "SELECT count(*) FROM sk_member_clock") ?? 0
        let tombstones = try Int.fetchOne(db, sql: "SELECT count(*) FROM sk_tombstone") ?? 0
        let status = try syncStatus(in: db)
        var vector = status.watermarks
        vector[metadata.peerID] = status.localSequence
        var blobFiles: [BlobFile] = []
        // Paths joined as strings: a store can refer to hundreds of thousands of blob files.
        for digest in try referencedDigests(among: nil, in: db).sorted() {
            let file = blobs.filePath(forDigest: digest)
            var facts = stat()
            guard lstat(file, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG else {
                throw StoreError(.damaged, path: path, message: "a record refers to the external binary file \(file), which is missing or not a regular file",
                                 hint: "`storekeep check` reports it; `storekeep repair` or a backup restores it")
            }
            blobFiles.append(BlobFile(digest: digest, path: file, bytes: Int64(facts.st_size)))
        }
        var facts = stat()
        guard stat(path, &facts) == 0 else {
            throw StoreError(.io, path: path, message: "cannot be read: \(String(cString: strerror(errno)))", hint: "check the store's permissions")
        }
        return StoreFileSnapshot(databasePath: path, databaseBytes: Int64(facts.st_size), blobs: blobFiles,
                                 coverage: BaselineCoverage(vector: vector, latestClock: status.clock),
                                 records: records, memberships: memberships, tombstones: tombstones)
    }
}
