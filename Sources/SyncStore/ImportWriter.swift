import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// Writes imported records with one prepared statement per entity (every column bound, absent ones
/// NULL), and their history as insert runs (``InsertRunLedger``): one history transaction per
/// batch, and one `sk_insert_run` row per entity and set of properties instead of a change row per record.
final class ImportWriter {
    let db: Database
    let store: SyncStore
    /// The creation time written into every record (`_created`).
    @exclusivity(unchecked) var now: Date
    /// Whether a value that does not fit its attribute's type is stored as given instead of refused:
    /// sync imports whatever another peer holds (`check` reports it), a migration refuses it.
    @exclusivity(unchecked) var keepsValuesAsGiven = false
    /// Where the blob files of values written without prepared ones go: written in the background
    /// and finished by the caller before it commits (durable together), or `nil`, each file
    /// durable on its own before its row is written.
    @exclusivity(unchecked) var blobFiles: BackgroundBlobFiles?
    /// The insert statement of each entity written so far.
    @exclusivity(unchecked) private var inserts: [String: RawStatement] = [:]
    /// The insert statement of ``lastPlan``'s entity, found without hashing its name again.
    @exclusivity(unchecked) private var lastInsert: (plan: EntityPlan, statement: RawStatement)?
    /// How an encoded insert payload of each entity binds into its insert statement.
    @exclusivity(unchecked) var encodedPlans: [String: EncodedInsertPlan] = [:]
    /// The plan of the last record's entity: a batch is nearly always of one entity, and comparing
    /// the name with the last one is far cheaper than hashing it for the store's table of plans.
    @exclusivity(unchecked) private var lastPlan: EntityPlan?
    /// The batch's history transaction and its runs, from ``beginHistory(author:)``.
    @exclusivity(unchecked) private(set) var runs: InsertRunLedger?
    /// The run of each (entity, set of properties) seen, found by comparing the plan's identity
    /// and the property bits: a batch has a handful.
    @exclusivity(unchecked) var runOfMask: [(plan: EntityPlan, mask: UInt64, run: Int)] = []
    /// The run of records whose properties do not fit in bits (more than 64 properties).
    @exclusivity(unchecked) private var propertiesCache = HistoryPropertiesCache()
    /// The references of the batch's blob files, written ahead of it (``BulkLoad/startWritingBlobFiles(of:)``),
    /// by ``PreparedBlobFiles/key(record:column:)``.
    @exclusivity(unchecked) var preparedBlobs: [Int: String] = [:]

    init(db: Database, store: SyncStore, now: Date) {
        self.db = db
        self.store = store
        self.now = now
    }

    /// Inserts one record and its join rows.
    ///
    /// - Parameter checked: the caller already had `nil` from ``SyncStore/problem(with:)`` for this
    ///   record, so it is not checked again (a value of the wrong kind is still refused).
    /// - Parameter position: the record's position in the batch whose files ``preparedBlobs`` refers
    ///   to; a large value without a prepared file is written (durably) here.
    func write(_ record: ImportRecord, checked: Bool = false, position recordPosition: Int? = nil) throws {
        if !checked, let problem = store.problem(with: record) {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): \(problem)")
        }
        let entity = record.entity
        guard let plan = plan(of: entity) else {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): there is no entity named '\(entity)'")
        }
        // Values are bound straight into the entity's prepared statement through the C API.
        guard let ledger = runs else {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(record.globalID): the batch has no history transaction")
        }
        let statement = try insertStatement(plan)
        statement.reset()
        statement.bind(1, record.globalID.rawValue)
        statement.bind(2, entity)
        statement.bind(3, now.timeIntervalSince1970)
        if let seed = record.seed {
            statement.bind(4, seed.set)
            statement.bind(5, Int64(seed.version))
        } else {
            statement.bindNull(4)
            statement.bindNull(5)
        }
        var index: Int32 = 6
        // The history's property bits are gathered while the values are looked up.
        var mask: UInt64 = 0
        // By position: a `for` over the columns would retain and release each one per record.
        let columns = plan.columns
        let columnBits = plan.columnBits
        for position in columns.indices {
            let column = columns[position]
            index += 1
            let found = record.values.value(named: column.name, nameIsASCII: column.nameIsASCII)
            if found != nil { mask |= columnBits[position] }
            let given = found ?? column.defaultValue ?? .null
            let blobKey = recordPosition.map { PreparedBlobFiles.key(record: $0, column: position) }
            try bind(given, column: column, entity: entity, at: index, in: statement, blobKey: blobKey)
        }
        let toOneBits = plan.toOneBits
        for (position, relationship) in plan.toOne.enumerated() {
            index += 1
            if let target = record.toOne[relationship.name] {
                statement.bind(index, target.rawValue)
                mask |= toOneBits[position]
            } else {
                statement.bindNull(index)
            }
            if relationship.order != nil {
                index += 1
                if let order = record.toOneOrder[relationship.name] { statement.bind(index, order) } else { statement.bindNull(index) }
            }
        }
        let run = self.run(of: record, plan: plan, gathered: mask, in: ledger)
        statement.bind(6, ledger.id(ofRun: run))
        let code = statement.execute()
        guard code == SQLITE_DONE else {
            if sqlite3_extended_errcode(db.sqliteConnection) == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ {
                throw StoreError(.invalidRequest, path: store.path, message: "a record with global ID \(record.globalID) already exists")
            }
            throw StoreError.wrapping(DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))),
                                      path: store.path, action: "write \(record.globalID)")
        }
        ledger.add(rowID: sqlite3_last_insert_rowid(db.sqliteConnection), toRun: run)
        let layout = store.layout
        for (name, members) in record.toMany.sorted(by: { $0.key < $1.key }) {
            guard case .join(let joinTable, let sourceColumn, let targetColumn, let sourceOrder, _)? = layout.relationships[entity]?[name] else { continue }
            let orderColumn = "\(sourceColumn)_order"
            let upsert = """
                INSERT INTO \(joinTable.quotedSQLIdentifier) (\(sourceColumn), \(targetColumn), \(orderColumn)) VALUES (?, ?, ?)
                ON CONFLICT (owner, target) DO UPDATE SET \(orderColumn) = excluded.\(orderColumn)
                """
            let statement = try db.cachedStatement(sql: upsert)
            for (index, member) in members.enumerated() {
                try statement.execute(arguments: [record.globalID.rawValue, member.rawValue, sourceOrder == nil ? nil : Int64(index)])
            }
        }
    }

    /// The insert statement of `plan`'s entity, prepared once per writer (so never shared with a
    /// statement that failed in another transaction), its arguments bound by ``write(_:checked:)``.
    func insertStatement(_ plan: EntityPlan) throws -> RawStatement {
        if let lastInsert, lastInsert.plan === plan { return lastInsert.statement }
        let statement = try inserts[plan.entity] ?? RawStatement(plan.insertSQL, db: db, path: store.path)
        inserts[plan.entity] = statement
        lastInsert = (plan, statement)
        return statement
    }

    /// Starts the batch's history transaction (the next of the local peer, by `author`); the
    /// records written after it are its inserts.
    func beginHistory(author: String) throws {
        let row = try HistoryCounters.beginLocalTransaction(peer: store.metadata.peerID, author: author, now: now, in: db, path: store.path)
        runs = try InsertRunLedger(db: db, transaction: row.id, path: store.path)
    }

    /// Makes the records written next inserts of the existing history transaction `transaction`
    /// (an imported one), after writing the runs of the one before.
    func beginHistory(ofTransaction transaction: Int64) throws {
        try runs?.finish(db: db)
        runs = try InsertRunLedger(db: db, transaction: transaction, path: store.path)
        runOfMask.removeAll()
    }

    /// Writes the runs of the batch's history transaction.
    func finishHistory() throws {
        try runs?.finish(db: db)
    }

    /// The run `record` belongs to: its entity and the properties it sets (the attributes given,
    /// those the model gives a default, and its relationships), as the history lists them.
    private func run(of record: ImportRecord, plan: EntityPlan, gathered: UInt64, in ledger: InsertRunLedger) -> Int {
        guard let mask = plan.propertyMask(of: record, attributesAndToOnes: gathered) else {
            return ledger.run(entity: record.entity, properties: propertiesCache.properties(of: record, defaulted: plan.defaultedAttributes))
        }
        for known in runOfMask where known.plan === plan && known.mask == mask { return known.run }
        let run = ledger.run(entity: record.entity, properties: plan.propertiesJSON(mask: mask))
        runOfMask.append((plan, mask, run))
        return run
    }

    /// The plan of `entity`, from ``lastPlan`` when it is the same entity.
    func plan(of entity: String) -> EntityPlan? {
        if let lastPlan, lastPlan.entity == entity { return lastPlan }
        lastPlan = store.plans[entity]
        return lastPlan
    }

    /// Binds `value` (normalized for `column`; a large binary value goes to a blob file, the one
    /// prepared under `blobKey` when there is one) at `index`.
    func bind(
        _ value: AttributeValue, column: EntityPlanColumn, entity: String, at index: Int32, in statement: RawStatement, blobKey: Int?
    ) throws {
        guard let normalized = ValueCoder.normalized(value, type: column.type) ?? (keepsValuesAsGiven ? value : nil) else {
            let reason = ValueCoder.refusal(of: value, type: column.type) ?? "a \(value.kindName) value"
            throw StoreError(.invalidRequest, path: store.path, message: "\(entity).\(column.name) is of type \(column.type.rawValue) and cannot hold \(reason)")
        }
        switch normalized {
        case .null: statement.bindNull(index)
        case .integer(let number): statement.bind(index, number)
        case .boolean(let flag): statement.bind(index, Int64(flag ? 1 : 0))
        case .double(let number): statement.bind(index, number)
        case .date(let date): statement.bind(index, date.timeIntervalSince1970)
        case .decimal(let text), .string(let text), .uri(let text): statement.bind(index, text)
        case .uuid(let uuid): statement.bind(index, uuid.uuidString)
        case .binary(let data):
            guard column.allowsExternalStorage, data.count > SyncStore.externalStorageThreshold else {
                statement.bind(index, data)
                return
            }
            let prepared = blobKey.flatMap { preparedBlobs[$0] }
            let reference = try prepared ?? blobFiles?.reference(writing: data, entity: entity, column: column.name)
            statement.bind(index, try reference ?? store.blobReference(writing: data, entity: entity, column: column.name))
        }
    }
}
