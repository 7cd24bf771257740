import Foundation
import GRDB
import ObjectModel

/// Applies other peers' transactions inside one write transaction (``SyncStore/applyRemoteTransactions(_:)``).
final class RemoteTransactionApplier {
    let store: SyncStore
    let db: Database
    @exclusivity(unchecked) private(set) var report = RemoteImportReport()
    let writer: ImportWriter
    private let localPeer: String
    let clocks: ClockStore
    @exclusivity(unchecked) private var watermarks: [String: Int64] = [:]
    private let encoder: JSONEncoder
    /// Per entity table, the statement that finds a record's exact entity by global ID (C API:
    /// it runs once per imported change).
    @exclusivity(unchecked) private var entityLookups: [String: RawStatement] = [:]
    @exclusivity(unchecked) private var tombstoneLookup: RawStatement?
    /// Whether the store holds any tombstone: when it holds none and no delete was imported yet,
    /// no record can be deleted, and the lookup per change is skipped.
    @exclusivity(unchecked) private var mayHaveTombstones = true

    /// The blob files the import writes, on a thread of their own, made durable together by
    /// ``finishBlobFiles()`` before the transaction that refers to them commits (a baseline or a
    /// first sync brings them by the hundred thousand: one fsync of each file and of its folder
    /// took most of a join, and writing them on the importing thread a quarter of it).
    let blobFiles: BackgroundBlobFiles

    init(store: SyncStore, db: Database) throws {
        self.store = store
        self.db = db
        writer = ImportWriter(db: db, store: store, now: Date())
        writer.keepsValuesAsGiven = true
        blobFiles = BackgroundBlobFiles(store: store)
        writer.blobFiles = blobFiles
        localPeer = store.metadata.peerID
        clocks = ClockStore(store: store, db: db)
        mayHaveTombstones = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sk_tombstone)") ?? true
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    }

    deinit {
        // An import that ends without finishing (it failed, or was stopped) writes no more files.
        blobFiles.abandon()
    }

    /// Writes what is left of the last transaction's insert runs, and makes the blob files durable.
    func finish() throws {
        try writer.finishHistory()
        try finishBlobFiles()
    }

    /// Makes every blob file written so far durable under its name: called before the SQLite
    /// transaction that refers to them commits.
    ///
    /// - Throws: ``StoreError`` `io` (a full disk included); the transaction then rolls back.
    func finishBlobFiles() throws {
        try blobFiles.finish()
    }

    func apply(_ transaction: SyncTransaction) throws {
        let peer = transaction.peer
        guard peer != localPeer else {
            throw StoreError(.invalidRequest, path: store.path, message: "transaction \(transaction.sequence) is this peer's own (\(peer)); a peer never imports its own transactions")
        }
        let last = try watermark(of: peer)
        if transaction.sequence <= last {
            report.alreadyImported += 1
            return
        }
        guard transaction.sequence == last + 1 else {
            throw StoreError(.invalidRequest, path: store.path,
                             message: "transaction \(transaction.sequence) of peer \(peer) does not follow the last one imported (\(last))",
                             hint: "import a peer's transactions in order, without gaps")
        }
        try db.execute(sql: "INSERT INTO sk_transaction (peer, seq, author, timestamp, hlc) VALUES (?, ?, ?, ?, ?)",
                       arguments: [peer, transaction.sequence, transaction.author, transaction.date.timeIntervalSince1970, transaction.clock.rawValue])
        let id = db.lastInsertedRowID
        try HistoryCounters.observe(transaction.clock, in: db)
        writer.now = transaction.date
        try writer.beginHistory(ofTransaction: id)
        for change in transaction.changes {
            try apply(change, of: transaction, historyID: id)
        }
        report.changes[peer, default: 0] += transaction.changes.count
        try db.execute(sql: """
            INSERT INTO sk_peer (peer, is_local, first_seen, last_seq) VALUES (?, 0, ?, ?)
            ON CONFLICT (peer) DO UPDATE SET last_seq = excluded.last_seq
            """, arguments: [peer, Date().timeIntervalSince1970, transaction.sequence])
        watermarks[peer] = transaction.sequence
        report.transactions[peer, default: 0] += 1
    }

    private func watermark(of peer: String) throws -> Int64 {
        if let known = watermarks[peer] { return known }
        let last = try db.storedValue(Int64.self, sql: "SELECT last_seq FROM sk_peer WHERE peer = ?", arguments: [peer],
                                      table: "sk_peer", row: "peer \(peer)", store: store.path) ?? 0
        watermarks[peer] = last
        return last
    }

    private func apply(_ encodedChange: SyncChange, of transaction: SyncTransaction, historyID: Int64) throws {
        let id = encodedChange.globalID
        guard let schema = store.syncSchemas[encodedChange.entity], let plan = store.plans[encodedChange.entity] else {
            report.skipped.append("\(encodedChange.kind.rawValue) of \(id): entity '\(encodedChange.entity)' is not in this store's model")
            return
        }
        if encodedChange.kind != .delete, try isDeleted(id) {
            report.changesToDeletedRecords += 1
            return
        }
        let rank: PropertyClock.Rank = encodedChange.kind == .insert ? .insert : .update
        let clock = PropertyClock(rank: rank, timestamp: transaction.clock, peer: transaction.peer)
        // The fast path: a new record bound straight from its encoded payload.
        if encodedChange.kind == .insert, let payload = encodedChange.encodedPayload {
            guard !plan.isAbstract else {
                report.skipped.append("insert of \(id): entity \(encodedChange.entity) is abstract")
                return
            }
            switch try writer.writeEncoded(entity: encodedChange.entity, globalID: id, seed: encodedChange.seed, payload: payload) {
            case .inserted(let memberships):
                try applyMemberships(memberships, of: id, schema: schema, clock: clock)
                return
            case .exists, .needsDecoding:
                break
            }
        }
        let change = try decoded(encodedChange, schema: schema)
        switch change.kind {
        case .delete:
            try applyDelete(change, schema: schema, clock: clock, historyID: historyID)
        case .insert:
            if let existing = try existingEntity(of: id, table: schema.table) {
                guard existing == change.entity else {
                    report.skipped.append("insert of \(change.entity) \(id): a \(existing) record has that global ID here")
                    return
                }
                let applied = try merge(change.properties, into: id, schema: schema, clock: clock)
                if try clocks.insertClock(of: id, table: schema.table) < clock {
                    try db.execute(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET _seed_set = ?, _seed_version = ? WHERE _gid = ?",
                                   arguments: [change.seed?.set, change.seed?.version, id.rawValue])
                    try clocks.setInsertClock(of: id, to: clock)
                }
                try recordChange(change, names: applied, historyID: historyID)
            } else {
                guard !plan.isAbstract else {
                    report.skipped.append("insert of \(id): entity \(change.entity) is abstract")
                    return
                }
                try insert(change, schema: schema, clock: clock)
            }
        case .update:
            guard try existingEntity(of: id, table: schema.table) == change.entity else {
                report.skipped.append("update of \(change.entity) \(id): this store has no such record")
                return
            }
            let applied = try merge(change.properties, into: id, schema: schema, clock: clock)
            if !applied.isEmpty {
                try db.cachedStatement(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET _updated = ? WHERE _gid = ?")
                    .execute(arguments: [transaction.date.timeIntervalSince1970, id.rawValue])
            }
            try recordChange(change, names: change.properties.map(\.name), historyID: historyID)
        }
    }

    /// `change` with its properties (or tombstone) decoded from its encoded payload, when it kept one.
    private func decoded(_ change: SyncChange, schema: SyncEntitySchema) throws -> SyncChange {
        guard let payload = change.encodedPayload else { return change }
        let properties = try payload.withUnsafeBytes { bytes in
            try ChangePayload.decode(bytes, schema: schema) { _ in
                throw WireError(offset: 0, problem: "a log names a blob file instead of holding its bytes")
            }
        }
        var result = change
        result.encodedPayload = nil
        if change.kind == .delete {
            for case .attribute(let name, let value) in properties { result.tombstone[name] = value }
        } else {
            result.properties = properties
        }
        return result
    }

    func applyMemberships(_ memberships: [(String, [MembershipChange])], of id: GlobalID, schema: SyncEntitySchema, clock: PropertyClock) throws {
        for (name, changes) in memberships {
            guard let position = schema.position(of: name), let property = schema.property(at: position) else { continue }
            for membership in changes { _ = try applyMembership(membership, of: id, storage: property.storage, clock: clock) }
        }
    }

    /// A record this store does not have: written like a bulk import's (an insert run of the
    /// imported transaction), then its memberships.
    private func insert(_ change: SyncChange, schema: SyncEntitySchema, clock: PropertyClock) throws {
        var values = AttributeValues()
        var toOne: [String: GlobalID] = [:]
        var toOneOrder: [String: Int64] = [:]
        var memberships: [(String, [MembershipChange])] = []
        for property in change.properties {
            switch property {
            case .attribute(let name, let value): values[name] = value
            case .toOne(let name, let target, let order):
                if let target { toOne[name] = target }
                if let order { toOneOrder[name] = order }
            case .toMany(let name, let changes): memberships.append((name, changes))
            }
        }
        let record = ImportRecord(entity: change.entity, globalID: change.globalID, values: values, toOne: toOne,
                                  toOneOrder: toOneOrder, seed: change.seed)
        try writer.write(record, checked: true)
        try applyMemberships(memberships, of: change.globalID, schema: schema, clock: clock)
    }

    /// Applies each property whose clock here is older than its incoming clock (`clock`, or what
    /// `clockOf` gives for it); returns the names applied.
    func merge(_ properties: [SyncPropertyChange], into id: GlobalID, schema: SyncEntitySchema, clock defaultClock: PropertyClock,
               clockOf: ((String) -> PropertyClock?)? = nil) throws -> [String] {
        var applied: [String] = []
        for property in properties {
            guard let position = schema.position(of: property.name), let carried = schema.property(at: position) else { continue }
            let clock = clockOf?(property.name) ?? defaultClock
            if case .toMany(_, let changes) = property {
                var any = false
                for membership in changes where try applyMembership(membership, of: id, storage: carried.storage, clock: clock) { any = true }
                if any { applied.append(property.name) }
                continue
            }
            let local = try clocks.clock(of: property.name, of: id, table: schema.table)
            guard local < clock else {
                report.conflictsLost += 1
                continue
            }
            if local != .origin, local.peer != clock.peer { report.conflictsWon += 1 }
            switch (property, carried.storage) {
            case (.attribute(_, let value), .attribute(let column, let type, let external)):
                try db.cachedStatement(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = ? WHERE _gid = ?")
                    .execute(arguments: [try storedValue(value, type: type, external: external, entity: schema.entity, name: property.name), id.rawValue])
            case (.toOne(_, let target, let order), .toOne(let column, let orderColumn)):
                if let orderColumn {
                    try db.cachedStatement(sql: """
                        UPDATE \(schema.table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = ?, \(orderColumn.quotedSQLIdentifier) = ? WHERE _gid = ?
                        """).execute(arguments: [target?.rawValue, target == nil ? nil : order, id.rawValue])
                } else {
                    try db.cachedStatement(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = ? WHERE _gid = ?")
                        .execute(arguments: [target?.rawValue, id.rawValue])
                }
            default:
                report.skipped.append("\(schema.entity).\(property.name) of \(id): the value is not of the property's kind")
                continue
            }
            try clocks.setClock(of: property.name, of: id, to: clock)
            applied.append(property.name)
        }
        return applied
    }

    /// Adds or removes one member when the membership's clock here is older; returns whether it did.
    func applyMembership(_ membership: MembershipChange, of source: GlobalID, storage: SyncEntitySchema.Storage, clock: PropertyClock) throws -> Bool {
        guard case .toMany(let table, let sourceColumn, _, _, _) = storage else { return false }
        let (owner, target) = sourceColumn == "owner" ? (source, membership.member) : (membership.member, source)
        let local = try clocks.membershipClock(table: table, owner: owner, target: target)
        guard local < clock else {
            report.conflictsLost += 1
            return false
        }
        let quoted = table.quotedSQLIdentifier
        if membership.added {
            let ownerOrder = sourceColumn == "owner" ? membership.order : membership.inverseOrder
            let targetOrderValue = sourceColumn == "owner" ? membership.inverseOrder : membership.order
            try db.cachedStatement(sql: """
                INSERT INTO \(quoted) (owner, target, owner_order, target_order) VALUES (?, ?, ?, ?)
                ON CONFLICT (owner, target) DO UPDATE SET owner_order = excluded.owner_order, target_order = excluded.target_order
                """).execute(arguments: [owner.rawValue, target.rawValue, ownerOrder, targetOrderValue])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(quoted) WHERE owner = ? AND target = ?").execute(arguments: [owner.rawValue, target.rawValue])
        }
        try clocks.setMembershipClock(table: table, owner: owner, target: target, present: membership.added, to: clock)
        return true
    }

    func applyDelete(_ change: SyncChange, schema: SyncEntitySchema, clock: PropertyClock, historyID: Int64?) throws {
        let id = change.globalID
        let identity = change.tombstone.isEmpty ? nil : String(decoding: try encoder.encode(change.tombstone), as: UTF8.self)
        try clocks.recordDelete(of: id, entity: change.entity, clock: clock, identity: identity)
        mayHaveTombstones = true
        if try existingEntity(of: id, table: schema.table) != nil {
            let transaction = StoreTransaction(db: db, store: store, now: Date())
            try transaction.keepInsertOfRecordLeaving(id, table: schema.table)
            try db.execute(sql: "DELETE FROM \(schema.table.quotedSQLIdentifier) WHERE _gid = ?", arguments: [id.rawValue])
            for table in store.layout.joinTables {
                try db.cachedStatement(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE owner = ?").execute(arguments: [id.rawValue])
                try db.cachedStatement(sql: "DELETE FROM \(table.quotedSQLIdentifier) WHERE target = ?").execute(arguments: [id.rawValue])
            }
        }
        if let historyID {
            try db.execute(sql: "INSERT INTO sk_change (tx, entity, gid, kind, properties, tombstone) VALUES (?, ?, ?, 'delete', '[]', ?)",
                           arguments: [historyID, change.entity, id.rawValue, identity])
        }
    }

    private func recordChange(_ change: SyncChange, names: [String], historyID: Int64) throws {
        let properties = String(decoding: try encoder.encode(Array(Set(names)).sorted()), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT INTO sk_change (tx, entity, gid, kind, properties) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [historyID, change.entity, change.globalID.rawValue, change.kind.rawValue, properties])
    }

    func existingEntity(of id: GlobalID, table: String) throws -> String? {
        let statement: RawStatement
        if let known = entityLookups[table] {
            statement = known
        } else {
            statement = try RawStatement("SELECT _entity FROM \(table.quotedSQLIdentifier) WHERE _gid = ?", db: db, path: store.path)
            entityLookups[table] = statement
        }
        statement.reset()
        statement.bind(1, id.rawValue)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    func isDeleted(_ id: GlobalID) throws -> Bool {
        guard mayHaveTombstones else { return false }
        let statement = try tombstoneLookup ?? RawStatement("SELECT 1 FROM sk_tombstone WHERE gid = ?", db: db, path: store.path)
        tombstoneLookup = statement
        statement.reset()
        statement.bind(1, id.rawValue)
        defer { statement.reset() }
        return try statement.step()
    }

    /// The SQLite value to store for `value`: as given when it does not fit the type (sync stores
    /// what another peer holds; `check` reports it), a large binary value in a blob file.
    private func storedValue(_ value: AttributeValue, type: AttributeType, external: Bool, entity: String, name: String) throws -> DatabaseValue {
        let normalized = ValueCoder.normalized(value, type: type) ?? value
        if case .binary(let data) = normalized, external, data.count > SyncStore.externalStorageThreshold {
            return try blobFiles.reference(writing: data, entity: entity, column: name).databaseValue
        }
        return ValueCoder.databaseValue(normalized)
    }
}
