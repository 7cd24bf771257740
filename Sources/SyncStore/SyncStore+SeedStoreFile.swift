import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Makes the seed store just built at `path` (closed) one self-contained file and checks it:
    /// back from WAL to a rollback journal (a reader opening it read-only then creates nothing
    /// beside it), compacted, SQLite's integrity check clean, and no entity table but those of
    /// seed configuration `configuration` of `model`.
    ///
    /// ```swift
    /// if let problem = try SyncStore.sealSeedStoreFile(at: temporary, configuration: "Postcodes", model: model) { … }
    /// ```
    ///
    /// - Returns: what is wrong with the file, or `nil` when it can be put in place.
    /// - Throws: ``StoreError`` when SQLite cannot rewrite or read it.
    public static func sealSeedStoreFile(at path: String, configuration: String, model: ManagedModel) throws -> SeedStoreFileProblem? {
        prepareSQLite()
        let held = Set(StoreLayout(model: model, seedConfiguration: configuration).entityTables)
        do {
            let queue = try DatabaseQueue(path: path)
            let problem = try queue.writeWithoutTransaction { db -> SeedStoreFileProblem? in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "VACUUM")
                let lines = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard lines == ["ok"] else { return .integrity(lines) }
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?",
                                                 arguments: [StoreLayout.entityTablePrefix.count, StoreLayout.entityTablePrefix])
                return tables.first(where: { !held.contains($0) }).map(SeedStoreFileProblem.foreignTable)
            }
            try queue.close()
            return problem
        } catch {
            throw StoreError.wrapping(error, path: path, action: "write the seed store back to one file")
        }
    }
}
