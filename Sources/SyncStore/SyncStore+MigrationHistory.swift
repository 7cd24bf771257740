import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// The migration history, oldest first (empty for a store of format 1 opened read-only).
    public func migrations() throws -> [MigrationRecord] {
        try read("read the migration history") { db in
            guard try db.tableExists("sk_migration") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT * FROM sk_migration ORDER BY id").map { row in
                let id: Int64 = try row.required("id", table: "sk_migration", row: "a migration run", store: path)
                func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
                    try row.required(column, table: "sk_migration", row: "migration run \(id)", store: path)
                }
                return MigrationRecord(
                    id: id, key: try value("key"), version: try value("version"), description: try value("description"),
                    source: try value("source"), checksum: try value("checksum"), started: Date(timeIntervalSince1970: try value("started")),
                    finished: row.stored("finished", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                    rows: try value("rows"), rejected: try value("rejected"), success: row.stored("success", as: Int64.self).map { $0 != 0 })
            }
        }
    }

    /// The mapping and step files a migration run applied (empty when the store does not record them:
    /// runs made before `sk_migration_file` existed, or runs without such files).
    public func migrationFiles(migration: Int64) throws -> [MigrationFile] {
        try read("read the files of a migration") { db in
            guard try db.tableExists("sk_migration_file") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT path, checksum FROM sk_migration_file WHERE migration = ? ORDER BY path",
                                    arguments: [migration]).map { row in
                MigrationFile(path: try row.required("path", table: "sk_migration_file", row: "a file of migration run \(migration)", store: path),
                              checksum: try row.required("checksum", table: "sk_migration_file", row: "a file of migration run \(migration)", store: path))
            }
        }
    }

    /// The checkpoints of a migration run, by stream.
    public func checkpoints(migration: Int64) throws -> [String: MigrationCheckpoint] {
        try read("read migration checkpoints") { db in
            guard try db.tableExists("sk_checkpoint") else { return [:] }
            var result: [String: MigrationCheckpoint] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM sk_checkpoint WHERE migration = ?", arguments: [migration]) {
                let stream: String = try row.required("stream", table: "sk_checkpoint", row: "a checkpoint of migration run \(migration)", store: path)
                func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
                    try row.required(column, table: "sk_checkpoint", row: "the checkpoint of stream \(stream) of migration run \(migration)", store: path)
                }
                let checkpoint = MigrationCheckpoint(stream: stream, position: try value("position"), rows: try value("rows"), rejected: try value("rejected"),
                                                     digest: RecordDigestSum(hex: row.stored("digest", as: String.self) ?? "") ?? RecordDigestSum())
                // A resumed run counts on from these: out of range, they were written around storekeep.
                let limit = Int64.max / 4
                guard (-1..<limit).contains(checkpoint.position), (0..<Int(limit)).contains(checkpoint.rows), (0..<Int(limit)).contains(checkpoint.rejected) else {
                    throw StoreError(.damaged, path: path,
                                     message: "sk_checkpoint: the checkpoint of stream \(stream) of migration run \(migration) holds position \(checkpoint.position), \(checkpoint.rows) rows, \(checkpoint.rejected) rejected, which no run writes",
                                     hint: "the store was written around storekeep; migrate into a new target")
                }
                result[checkpoint.stream] = checkpoint
            }
            return result
        }
    }

    /// The records a migration run rejected, in the order they were met.
    public func rejections(migration: Int64) throws -> [MigrationRejection] {
        try read("read rejected records") { db in
            guard try db.tableExists("sk_rejected") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT * FROM sk_rejected WHERE migration = ? ORDER BY id", arguments: [migration]).map { row in
                func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
                    try row.required(column, table: "sk_rejected", row: "a rejected record of migration run \(migration)", store: path)
                }
                return MigrationRejection(stream: try value("stream"), position: try value("position"), entity: try value("entity"), reason: try value("reason"))
            }
        }
    }

    func writeOrWrap<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.write(body)
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }
}
