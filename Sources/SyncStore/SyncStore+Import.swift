import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Why `record` cannot be imported as it is, or `nil` when it can: an unknown or abstract
    /// entity, an unknown or transient property, a value of the wrong kind, a duplicate global ID
    /// is *not* checked here (the import itself refuses it).
    public func problem(with record: ImportRecord) -> String? {
        guard let plan = plans[record.entity] else {
            return "there is no entity named '\(record.entity)' in model \(model.versionName)"
        }
        if plan.isAbstract { return "entity \(record.entity) is abstract" }
        var next = 0
        for (name, value) in record.values {
            guard let index = plan.columnIndex(named: name, from: next) else {
                return "entity \(record.entity) has no stored attribute named '\(name)'"
            }
            next = index + 1
            let type = plan.columns[index].type
            if let reason = ValueCoder.refusal(of: value, type: type) {
                return "\(record.entity).\(name) is of type \(type.rawValue) and cannot hold \(reason)"
            }
        }
        for name in record.toOne.keys where !plan.toOne.contains(where: { $0.name == name }) {
            return "entity \(record.entity) has no stored to-one relationship named '\(name)'"
        }
        for name in record.toMany.keys where !plan.joinedToMany.contains(name) {
            return "\(record.entity).\(name) is not a to-many relationship kept in a join table"
        }
        return nil
    }

    /// Writes a batch of imported records, one history transaction for them, and the stream's
    /// checkpoint, all in one SQLite transaction: after a crash, either all of it is there or none.
    ///
    /// The history lists the records as inserts of the transaction through insert runs (one
    /// `sk_insert_run` row per entity and set of properties, named by each record's `_insert_run`)
    /// rather than a `sk_change` row each: ``transactions(after:)`` reads both alike.
    ///
    /// - Parameters:
    ///   - records: the records, each checked with ``problem(with:)`` beforehand.
    ///   - author: the history author (`storekeep.migrate`).
    ///   - migration: the migration run (``beginMigration(key:version:description:source:checksum:)``).
    ///   - checkpoint: where the stream stands after this batch.
    ///   - checked: the caller had `nil` from ``problem(with:)`` for every record (as a migration
    ///     does before it digests a record), so records are not checked again; a value of the wrong
    ///     kind is refused all the same.
    ///   - blobFiles: the blob files of `records`, started with ``startWritingBlobFiles(of:)`` (so that
    ///     they are written while an earlier batch commits); when `nil`, they are started here.
    /// - Throws: ``StoreError``; `invalidRequest` for a record that ``problem(with:)`` would refuse
    ///   or a global ID that already exists.
    public func importBatch(
        _ records: [ImportRecord], rejections: [MigrationRejection] = [], author: String, migration: Int64, checkpoint: MigrationCheckpoint,
        checked: Bool = false, blobFiles: PreparedBlobFiles? = nil
    ) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        guard blobFiles == nil || blobFiles?.recordCount == records.count else {
            throw StoreError(.invalidRequest, path: path, message: "the blob files given were written for \(blobFiles?.recordCount ?? 0) records, not \(records.count)")
        }
        // Files started here are waited for whatever happens, so that none is still being written
        // once this returns or throws; a batch without records has none (and need not queue behind
        // another batch's files).
        let files = blobFiles ?? (records.isEmpty ? nil : startWritingBlobFiles(of: records))
        defer { if blobFiles == nil { files?.waitUntilDurable() } }
        let now = Date()
        do {
            try database.write { db in
                let writer = ImportWriter(db: db, store: self, now: now)
                if !records.isEmpty { try writer.beginHistory(author: author) }
                // The rows about to commit refer to the batch's blob files, which must be durable
                // first: they are written before the rows and synced while the rows are inserted.
                writer.preparedBlobs = try files?.references() ?? [:]
                // Through the buffer: a `for` over the array would copy (retain and release) every record.
                try records.withUnsafeBufferPointer { buffer in
                    for position in buffer.indices { try writer.write(buffer[position], checked: checked, position: position) }
                }
                try writer.finishHistory()
                files?.waitUntilDurable()
                try recordBatch(rejections: rejections, migration: migration, checkpoint: checkpoint, in: db)
            }
        } catch where StoreError.comesFromTheStore(error) {
            // On a full disk the batch's blob files, written meanwhile, may be what filled it: when
            // their writing failed too, that is the more precise message.
            if let failure = error as? DatabaseError, failure.resultCode == .SQLITE_FULL || failure.resultCode == .SQLITE_IOERR, let files {
                do {
                    _ = try files.references()
                } catch let blobError {
                    throw blobError
                }
            }
            throw StoreError.wrapping(error, path: path, action: "write a batch")
        }
    }

    /// Writes what a batch ends with, in its transaction: its rejected records, the stream's
    /// checkpoint, and the run's totals.
    func recordBatch(rejections: [MigrationRejection], migration: Int64, checkpoint: MigrationCheckpoint, in db: Database) throws {
        for rejection in rejections {
            try db.execute(sql: "INSERT INTO sk_rejected (migration, stream, position, entity, reason) VALUES (?, ?, ?, ?, ?)",
                           arguments: [migration, rejection.stream, rejection.position, rejection.entity, rejection.reason])
        }
        try db.execute(sql: """
            INSERT INTO sk_checkpoint (migration, stream, position, rows, rejected, digest) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (migration, stream) DO UPDATE SET position = excluded.position, rows = excluded.rows,
                rejected = excluded.rejected, digest = excluded.digest
            """, arguments: [migration, checkpoint.stream, checkpoint.position, checkpoint.rows, checkpoint.rejected,
                             checkpoint.digest.description])
        try db.execute(sql: """
            UPDATE sk_migration SET rows = (SELECT COALESCE(SUM(rows), 0) FROM sk_checkpoint WHERE migration = ?),
                rejected = (SELECT COALESCE(SUM(rejected), 0) FROM sk_checkpoint WHERE migration = ?) WHERE id = ?
            """, arguments: [migration, migration, migration])
    }

    /// Starts a migration run, or returns the unfinished run with the same `key` so that it can resume.
    ///
    /// - Parameter files: the mapping or step files the run applies, with their checksums; kept in
    ///   `sk_migration_file` (created here when an older store lacks it) for `check` to compare later.
    public func beginMigration(
        key: String, version: String, description: String, source: String, checksum: String, files: [MigrationFile] = []
    ) throws -> MigrationRecord {
        let id: Int64 = try writeOrWrap("start a migration") { db in
            if let open = try Int64.fetchOne(db, sql: "SELECT id FROM sk_migration WHERE key = ? AND finished IS NULL ORDER BY id DESC LIMIT 1", arguments: [key]) {
                return open
            }
            try db.execute(sql: "INSERT INTO sk_migration (key, version, description, source, checksum, started) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [key, version, description, source, checksum, Date().timeIntervalSince1970])
            let run = db.lastInsertedRowID
            if !files.isEmpty {
                try StoreSchema.createMigrationFileTable(in: db)
                for file in files {
                    try db.execute(sql: "INSERT OR REPLACE INTO sk_migration_file (migration, path, checksum) VALUES (?, ?, ?)",
                                   arguments: [run, file.path, file.checksum])
                }
            }
            return run
        }
        guard let record = try migrations().first(where: { $0.id == id }) else {
            throw StoreError(.damaged, path: path, message: "migration run \(id) vanished from sk_migration")
        }
        return record
    }

    /// Marks a migration run finished.
    public func finishMigration(_ id: Int64, success: Bool) throws {
        try writeOrWrap("finish a migration") { db in
            try db.execute(sql: "UPDATE sk_migration SET finished = ?, success = ? WHERE id = ?",
                           arguments: [Date().timeIntervalSince1970, success ? 1 : 0, id])
        }
    }

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

    private func writeOrWrap<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.write(body)
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: action)
        }
    }
}
