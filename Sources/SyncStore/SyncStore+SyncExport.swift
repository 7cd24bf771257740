import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

extension SyncStore {
    /// Writes the local transactions numbered after `sequence` (through `through`), oldest first, into `encoder`, with
    /// the values each change set, until `encoder` holds at least `maxChanges` changes (whole
    /// transactions only: at least one is written when any is left).
    ///
    /// A change saved one by one carries the payload recorded when it was saved; the inserts of a
    /// bulk import (insert runs), and changes recorded before format 4, carry the record's values as
    /// the store holds them now (a later update of the same record follows in a later transaction,
    /// so a peer that imports both ends with the same values). Blob files are read and their bytes
    /// written inline. Each transaction lists, per other peer, the last of that peer's
    /// transactions imported before it was made (its dependencies).
    ///
    /// - Returns: whether local transactions are left after the last one written.
    /// - Throws: ``StoreError`` (`damaged` for a missing blob file or an unreadable payload;
    ///   `invalidRequest` for a seed store, which is never synced).
    /// - Parameter through: the last sequence number to write, when not every transaction is wanted
    ///   (to write one log's range again).
    @discardableResult
    public func exportTransactions(after sequence: Int64, through: Int64 = .max, into encoder: TransactionLogEncoder, maxChanges: Int) throws -> Bool {
        try refuseSeedStore("export transactions")
        return try read("export transactions") { db in
            let local = metadata.peerID
            let transactions = try Row.fetchAll(db, sql: """
                SELECT id, seq, author, timestamp, hlc FROM sk_transaction WHERE peer = ? AND seq > ? AND seq <= ? ORDER BY seq
                """, arguments: [local, sequence, through])
            let others = try String.fetchAll(db, sql: "SELECT peer FROM sk_peer WHERE peer != ? ORDER BY peer", arguments: [local])
            let exporter = TransactionExporter(store: self, db: db)
            for (index, transaction) in transactions.enumerated() {
                if encoder.transactionCount > 0, encoder.changeCount >= maxChanges { return index < transactions.count }
                guard let id = try transaction.optional("id", as: Int64.self, table: "sk_transaction", row: "a transaction", store: path),
                      let seq = try transaction.optional("seq", as: Int64.self, table: "sk_transaction", row: "transaction \(id)", store: path)
                else { continue }
                let place = "transaction \(id)"
                var dependencies: [String: Int64] = [:]
                for peer in others {
                    if let last = try db.storedValue(Int64.self, sql: "SELECT seq FROM sk_transaction WHERE peer = ? AND id < ? ORDER BY id DESC LIMIT 1",
                                                     arguments: [peer, id], table: "sk_transaction", row: "the last of peer \(peer) before \(place)", store: path) {
                        dependencies[peer] = last
                    }
                }
                let timestamp = try transaction.optional("timestamp", as: Double.self, table: "sk_transaction", row: place, store: path) ?? 0
                let clock = try transaction.optional("hlc", as: Int64.self, table: "sk_transaction", row: place, store: path).map(HybridTimestamp.init(rawValue:))
                    ?? HybridTimestamp(date: Date(timeIntervalSince1970: timestamp))
                try exporter.export(transaction: id, sequence: seq, clock: clock, date: Date(timeIntervalSince1970: timestamp),
                                    author: try transaction.optional("author", as: String.self, table: "sk_transaction", row: place, store: path) ?? "",
                                    dependencies: dependencies, into: encoder)
            }
            return false
        }
    }
}

/// Reads one store's transactions for ``SyncStore/exportTransactions(after:through:into:maxChanges:)``.
struct TransactionExporter {
    let store: SyncStore
    let db: Database

    func export(transaction id: Int64, sequence: Int64, clock: HybridTimestamp, date: Date, author: String,
                dependencies: [String: Int64], into encoder: TransactionLogEncoder) throws {
        let runs = store.hasInsertRuns ? try Row.fetchAll(db, sql: """
            SELECT id, entity, properties, first_rowid, last_rowid, records FROM sk_insert_run WHERE tx = ? ORDER BY id
            """, arguments: [id]) : []
        let changeRows = try Row.fetchAll(db, sql: "SELECT entity, gid, kind, properties, payload FROM sk_change WHERE tx = ? ORDER BY id",
                                          arguments: [id])
        // The count is written before the changes, so it must be exact: the rows a run stands for
        // are counted rather than taken from its `records` column.
        var runRows: [(run: Row, count: Int)] = []
        for run in runs {
            let count = try countRecords(of: run)
            runRows.append((run, count))
        }
        encoder.beginTransaction(sequence: sequence, clock: clock, date: date, author: author, dependencies: dependencies,
                                 changes: runRows.reduce(0) { $0 + $1.count } + changeRows.count)
        for (run, _) in runRows { try exportRun(run, into: encoder) }
        for row in changeRows { try exportChange(row, into: encoder) }
    }

    private func runFacts(_ run: Row) throws -> (id: Int64, schema: SyncEntitySchema, names: [String], first: Int64, last: Int64)? {
        func value<T: DatabaseValueConvertible>(_ column: String, _ type: T.Type) throws -> T? {
            try run.optional(column, as: T.self, table: "sk_insert_run", row: "an insert run", store: store.path)
        }
        guard let id = try value("id", Int64.self), let entity = try value("entity", String.self), let schema = store.syncSchemas[entity],
              let text = try value("properties", String.self), let first = try value("first_rowid", Int64.self),
              let last = try value("last_rowid", Int64.self) else { return nil }
        guard let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw StoreError(.damaged, path: store.path, message: "insert run \(id) lists its properties in unreadable JSON",
                             hint: "run `storekeep check`; restore the store from a backup")
        }
        return (id, schema, names, first, last)
    }

    private func countRecords(of run: Row) throws -> Int {
        guard let facts = try runFacts(run) else { return 0 }
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM \(facts.schema.table.quotedSQLIdentifier) WHERE _rowid BETWEEN ? AND ? AND _insert_run = ?
            """, arguments: [facts.first, facts.last, facts.id]) ?? 0
    }

    /// The inserts an insert run stands for, with the records' current values.
    private func exportRun(_ run: Row, into encoder: TransactionLogEncoder) throws {
        guard let facts = try runFacts(run) else { return }
        let toMany = Set(facts.names)
        let builder = RowPayloadBuilder(store: store, db: db, schema: facts.schema,
                                        names: facts.schema.insertedPropertyNames(touchedToMany: toMany))
        let statement = try RawStatement(
            "SELECT _gid, _seed_set, _seed_version, \(builder.selectList) FROM \(facts.schema.table.quotedSQLIdentifier) WHERE _rowid BETWEEN ? AND ? AND _insert_run = ? ORDER BY _rowid",
            db: db, path: store.path)
        statement.bind(1, facts.first)
        statement.bind(2, facts.last)
        statement.bind(3, facts.id)
        while try statement.step() {
            let globalID = GlobalID(statement.text(0) ?? "")
            let seed = statement.text(1).map { SeedMark(set: $0, version: Int(statement.int64(2))) }
            let payload = try builder.payload(of: globalID, from: statement, firstColumn: 3)
            encoder.appendChange(kind: .insert, entity: facts.schema.entity, globalID: globalID, seed: seed, payload: payload)
        }
    }

    /// One `sk_change` row: its recorded payload (blob references replaced by their bytes), or,
    /// without one, the record's current values.
    private func exportChange(_ row: Row, into encoder: TransactionLogEncoder) throws {
        func value<T: DatabaseValueConvertible>(_ column: String, _ type: T.Type) throws -> T? {
            try row.optional(column, as: T.self, table: "sk_change", row: "a change", store: store.path)
        }
        let entity = try value("entity", String.self) ?? ""
        let globalID = GlobalID(try value("gid", String.self) ?? "")
        let kind = ChangeKind(rawValue: try value("kind", String.self) ?? "") ?? .update
        guard let schema = store.syncSchemas[entity] else {
            throw StoreError(.damaged, path: store.path, message: "the history names entity '\(entity)', which the model does not have",
                             hint: "run `storekeep check`")
        }
        var seed: SeedMark?
        if kind == .insert, let facts = try Row.fetchOne(db, sql: "SELECT _seed_set, _seed_version FROM \(schema.table.quotedSQLIdentifier) WHERE _gid = ?",
                                                          arguments: [globalID.rawValue]),
           let set = try facts.optional(at: 0, as: String.self, table: schema.table, row: "record \(globalID)", store: store.path) {
            seed = SeedMark(set: set, version: try facts.optional(at: 1, as: Int.self, table: schema.table, row: "record \(globalID)", store: store.path) ?? 0)
        }
        if let payload = try value("payload", Data.self) {
            if let flags = payload.first, flags & ChangePayload.hasBlobReferences != 0 {
                let properties = try payload.withUnsafeBytes { bytes in
                    try ChangePayload.decode(bytes, schema: schema) { hex in try readBlob(hex, entity: entity) }
                }
                encoder.appendChange(kind: kind, entity: entity, globalID: globalID, seed: seed,
                                     payload: try ChangePayload.encode(properties, schema: schema))
            } else {
                payload.withUnsafeBytes { encoder.appendChange(kind: kind, entity: entity, globalID: globalID, seed: seed, payload: $0) }
            }
            return
        }
        // Recorded before format 4: the values as they are now (none for a record since deleted).
        var names: [String] = []
        if let text = try value("properties", String.self) { names = (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? [] }
        guard kind != .delete else {
            encoder.appendChange(kind: kind, entity: entity, globalID: globalID, seed: nil, payload: [0, 0])
            return
        }
        let builder = RowPayloadBuilder(store: store, db: db, schema: schema,
                                        names: kind == .insert ? schema.insertedPropertyNames(touchedToMany: Set(names)) : names)
        let statement = try RawStatement("SELECT \(builder.selectList) FROM \(schema.table.quotedSQLIdentifier) WHERE _gid = ?",
                                         db: db, path: store.path)
        statement.bind(1, globalID.rawValue)
        let payload = try statement.step() ? try builder.payload(of: globalID, from: statement, firstColumn: 0) : [0, 0]
        encoder.appendChange(kind: kind, entity: entity, globalID: globalID, seed: seed, payload: payload)
    }

    private func readBlob(_ hex: String, entity: String) throws -> Data {
        do {
            return try store.blobs.read(digest: hex)
        } catch {
            throw StoreError(.damaged, path: store.path, message: "the external value \(hex) of a \(entity) record is missing (\(store.blobs.fileURL(forDigest: hex).path))",
                             hint: "restore the blob folder from a backup; `storekeep check` lists every missing file")
        }
    }
}
