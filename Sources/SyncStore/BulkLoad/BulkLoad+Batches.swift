import Foundation
import GRDB

extension BulkLoad {
    /// Writes a batch of records, one history transaction for them, the records the source could
    /// not give, and the stream's checkpoint, all in one SQLite transaction: after a crash, either
    /// all of it is there or none.
    ///
    /// The history lists the records as inserts of the transaction through insert runs (one per
    /// entity and set of properties, `docs/format.md`) rather than a change row each:
    /// ``SyncStore/transactions(after:)`` reads both alike.
    ///
    /// - Parameters:
    ///   - records: the records, each checked with ``SyncStore/problem(with:)`` beforehand.
    ///   - rejections: the source's records this batch did not write, and why.
    ///   - checkpoint: where the stream stands after this batch.
    ///   - checked: the caller had `nil` from ``SyncStore/problem(with:)`` for every record (as a
    ///     migration does before it digests a record), so records are not checked again; a value of
    ///     the wrong kind is refused all the same.
    ///   - blobFiles: the blob files of `records`, started with ``startWritingBlobFiles(of:)`` (so that
    ///     they are written while an earlier batch commits); when `nil`, they are started here.
    /// - Throws: ``StoreError``; `invalidRequest` for a record that ``SyncStore/problem(with:)`` would
    ///   refuse or a global ID that already exists.
    public func importBatch(_ records: [ImportRecord], rejections: [MigrationRejection] = [], checkpoint: MigrationCheckpoint,
                            checked: Bool = false, blobFiles: PreparedBlobFiles? = nil) throws {
        let store = self.store, path = store.path
        guard !store.isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        guard blobFiles == nil || blobFiles?.recordCount == records.count else {
            throw StoreError(.invalidRequest, path: path, message: "the blob files given were written for \(blobFiles?.recordCount ?? 0) records, not \(records.count)")
        }
        // Files started here are waited for whatever happens, so that none is still being written
        // once this returns or throws; a batch without records has none (and need not queue behind
        // another batch's files).
        let files = blobFiles ?? (records.isEmpty ? nil : startWritingBlobFiles(of: records))
        defer { if blobFiles == nil { _ = try? files?.waitUntilDurable() } }
        let now = Date()
        do {
            try store.database.write { db in
                let writer = ImportWriter(db: db, store: store, now: now)
                if !records.isEmpty { try writer.beginHistory(author: author) }
                // The rows about to commit refer to the batch's blob files, which must be durable
                // first: they are written before the rows and synced while the rows are inserted.
                writer.preparedBlobs = try files?.references() ?? [:]
                // Through the buffer: a `for` over the array would copy (retain and release) every record.
                try records.withUnsafeBufferPointer { buffer in
                    for position in buffer.indices { try writer.write(buffer[position], checked: checked, position: position) }
                }
                try writer.finishHistory()
                try files?.waitUntilDurable()
                try recordBatch(rejections: rejections, checkpoint: checkpoint, in: db)
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

    /// Starts writing the blob files of `records`' large binary values (over
    /// ``SyncStore/externalStorageThreshold`` bytes, in attributes that allow external storage,
    /// given or taken from the model's default) on the store's blob queue, then making them durable
    /// (``DurableFileBatch``: each file named once its bytes are on disk, each folder fsynced once);
    /// returns at once.
    ///
    /// The queue handles one batch at a time, in the order started, so two batches never write the
    /// same file at once. Pass the result to ``importBatch(_:rejections:checkpoint:checked:blobFiles:)``
    /// with the same records: the files are then written while an earlier batch commits, instead of
    /// inside this batch's transaction.
    public func startWritingBlobFiles(of records: [ImportRecord]) -> PreparedBlobFiles {
        store.startWritingBlobFiles(of: records)
    }

    /// Writes what a batch ends with, in its transaction: its rejected records, the stream's
    /// checkpoint, and the run's totals.
    func recordBatch(rejections: [MigrationRejection], checkpoint: MigrationCheckpoint, in db: Database) throws {
        let migration = run.id
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
}
