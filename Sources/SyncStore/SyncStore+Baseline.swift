import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// What a baseline stands for: the last transaction of each peer it covers, and the largest clock
/// reading in it.
public struct BaselineCoverage: Hashable, Sendable, Codable {
    /// Per peer, the last of its transactions whose effects the baseline holds.
    public var vector: [String: Int64]
    /// The largest clock reading the store had issued or imported.
    public var latestClock: HybridTimestamp

    /// Creates a coverage.
    public init(vector: [String: Int64], latestClock: HybridTimestamp) {
        self.vector = vector
        self.latestClock = latestClock
    }
}

extension SyncStore {
    /// The `sk_metadata` key holding, per peer, the sequence number up to which the store's history
    /// may be missing (JSON): what a baseline brought in without its transactions, or what `archive`
    /// removed. Below it a gap is no finding, and a watermark may stand above the history.
    static let historyFloorKey = "historyFloor"

    /// Writes a baseline of the whole content into `encoder`: every live record with the clock of
    /// its insert and of every property set since, every membership clock, every tombstone. An
    /// encoder that hands its body on in parts has handed on the last one when this returns.
    ///
    /// - Returns: what the baseline covers: this peer's last transaction and its watermarks.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for a seed store (never synced).
    public func exportBaseline(into encoder: BaselineEncoder) throws -> BaselineCoverage {
        try refuseSeedStore("write a baseline")
        return try read("write a baseline") { db in
            for entity in model.entities.map(\.name).sorted() {
                guard let schema = syncSchemas[entity], let plan = plans[entity], !plan.isAbstract else { continue }
                try exportBaselineRecords(of: schema, into: encoder, db: db)
            }
            for table in layout.joinTables {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT m.owner, m.target, m.present, m.rank, m.hlc, m.peer, j.owner_order, j.target_order
                    FROM sk_member_clock m LEFT JOIN \(table.quotedSQLIdentifier) j ON j.owner = m.owner AND j.target = m.target
                    WHERE m.relationship = ? ORDER BY m.owner, m.target
                    """, arguments: [table])
                while let row = try rows.next() {
                    guard let owner = try row.optional(at: 0, as: String.self, table: "sk_member_clock", row: "a membership of \(table)", store: path),
                          let target = try row.optional(at: 1, as: String.self, table: "sk_member_clock", row: "a membership of \(table)", store: path)
                    else { continue }
                    let place = "\(table) \(owner) → \(target)"
                    try encoder.membership(table: table, owner: owner, target: target,
                                       present: (try row.optional(at: 2, as: Int64.self, table: "sk_member_clock", row: place, store: path) ?? 0) != 0,
                                       ownerOrder: try row.optional(at: 6, as: Int64.self, table: table, row: place, store: path),
                                       targetOrder: try row.optional(at: 7, as: Int64.self, table: table, row: place, store: path),
                                       clock: try row.propertyClock(at: 3, table: "sk_member_clock", row: place, store: path))
                }
            }
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            let tombstones = try Row.fetchCursor(db, sql: "SELECT gid, entity, hlc, peer, identity FROM sk_tombstone ORDER BY gid")
            while let row = try tombstones.next() {
                guard let gid = try row.optional(at: 0, as: String.self, table: "sk_tombstone", row: "a tombstone", store: path),
                      let entity = try row.optional(at: 1, as: String.self, table: "sk_tombstone", row: "the tombstone of \(gid)", store: path)
                else { continue }
                let place = "the tombstone of \(gid)"
                var identity: [UInt8] = [0, 0]
                if let text = try row.optional(at: 4, as: String.self, table: "sk_tombstone", row: place, store: path), let values = try? decoder.decode([String: AttributeValue].self, from: Data(text.utf8)),
                   let schema = syncSchemas[entity] {
                    let properties = values.sorted { $0.key < $1.key }.map { SyncPropertyChange.attribute($0.key, $0.value) }
                    identity = (try? ChangePayload.encode(properties, schema: schema)) ?? identity
                }
                try encoder.tombstone(entity: entity, globalID: gid,
                                  clock: HybridTimestamp(rawValue: try row.optional(at: 2, as: Int64.self, table: "sk_tombstone", row: place, store: path) ?? 0),
                                  peer: try row.optional(at: 3, as: String.self, table: "sk_tombstone", row: place, store: path) ?? "", identity: identity)
            }
            try encoder.finish()
            let status = try syncStatus(in: db)
            var vector = status.watermarks
            vector[metadata.peerID] = status.localSequence
            return BaselineCoverage(vector: vector, latestClock: status.clock)
        }
    }

    /// The clocks of the properties of record `gid` changed since its insert, read record by
    /// record (an index range of `sk_clock`, through `lookup`, prepared once), so that a store with
    /// many edited values is exported with the memory of one record. A row whose columns are not of
    /// their kinds is read again through GRDB, which converts what it exactly can and refuses the
    /// rest as damage.
    private func propertyClocks(of gid: String, lookup: RawStatement, db: Database) throws -> [(String, PropertyClock)] {
        lookup.reset()
        lookup.bind(1, gid)
        var clocks: [(String, PropertyClock)] = []
        while try lookup.step() {
            guard lookup.columnType(0) == SQLITE_TEXT, lookup.columnType(1) == SQLITE_INTEGER, lookup.columnType(2) == SQLITE_INTEGER,
                  lookup.columnType(3) == SQLITE_TEXT, let property = lookup.text(0) else {
                lookup.reset()
                return try checkedPropertyClocks(of: gid, db: db)
            }
            clocks.append((property, Self.clock(rank: lookup.int64(1), hlc: lookup.int64(2), peer: lookup.text(3))))
        }
        return clocks
    }

    /// ``propertyClocks(of:lookup:db:)`` through GRDB's checked conversions.
    private func checkedPropertyClocks(of gid: String, db: Database) throws -> [(String, PropertyClock)] {
        var clocks: [(String, PropertyClock)] = []
        let rows = try Row.fetchCursor(db, sql: Self.propertyClocksSQL, arguments: [gid])
        while let row = try rows.next() {
            guard let property = try row.optional(at: 0, as: String.self, table: "sk_clock", row: "a clock of \(gid)", store: path) else { continue }
            clocks.append((property, try row.propertyClock(at: 1, table: "sk_clock", row: "\(gid) \(property)", store: path)))
        }
        return clocks
    }

    private static let propertyClocksSQL = "SELECT property, rank, hlc, peer FROM sk_clock WHERE gid = ? AND property != '' ORDER BY property"

    private func exportBaselineRecords(of schema: SyncEntitySchema, into encoder: BaselineEncoder, db: Database) throws {
        let ownerSide = Set(schema.properties.compactMap { property -> String? in
            if case .toMany(_, let source, _, _, _) = property.storage, source == "owner" { return property.name }
            return nil
        })
        let builder = RowPayloadBuilder(store: self, db: db, schema: schema, names: schema.insertedPropertyNames(touchedToMany: ownerSide))
        let quoted = schema.table.quotedSQLIdentifier
        let run = hasInsertRuns ? "r.tx" : "NULL"
        let runJoin = hasInsertRuns ? "LEFT JOIN sk_insert_run r ON r.id = e._insert_run" : ""
        let statement = try RawStatement("""
            SELECT e._gid, e._seed_set, e._seed_version, e._updated, c.rank, c.hlc, c.peer, t.hlc, t.peer, t.timestamp, \(builder.selectList)
            FROM \(quoted) e
            LEFT JOIN sk_clock c ON c.gid = e._gid AND c.property = ''
            \(runJoin)
            LEFT JOIN sk_transaction t ON t.id = COALESCE(\(run), CASE WHEN c.gid IS NULL THEN
                (SELECT x.tx FROM sk_change x WHERE x.gid = e._gid AND x.kind = 'insert' ORDER BY x.id DESC LIMIT 1) END)
            WHERE e._entity = ?
            """, db: db, path: path)
        statement.bind(1, schema.entity)
        let lookup = try RawStatement(Self.propertyClocksSQL, db: db, path: path)
        while try statement.step() {
            guard let gid = statement.text(0) else { continue }
            let seed = statement.text(1).map { SeedMark(set: $0, version: Int(statement.int64(2))) }
            let updated: Double? = statement.columnType(3) == 5 /* SQLITE_NULL */ ? nil : statement.double(3)
            let insertClock: PropertyClock
            if statement.columnType(4) != 5 {
                insertClock = Self.clock(rank: statement.int64(4), hlc: statement.int64(5), peer: statement.text(6))
            } else if statement.columnType(8) != 5 {
                let reading = statement.columnType(7) != 5 ? HybridTimestamp(rawValue: statement.int64(7))
                    : HybridTimestamp(date: Date(timeIntervalSince1970: statement.double(9)))
                insertClock = PropertyClock(rank: .insert, timestamp: reading, peer: statement.text(8) ?? "")
            } else {
                insertClock = .origin
            }
            let propertyClocks = try propertyClocks(of: gid, lookup: lookup, db: db).compactMap { name, clock in schema.position(of: name).map { ($0, clock) } }
            let payload = try builder.payload(of: GlobalID(gid), from: statement, firstColumn: 10)
            try encoder.record(entity: schema.entity, globalID: gid, seed: seed, updated: updated, insertClock: insertClock,
                           overrides: propertyClocks, payload: payload)
        }
    }

    static func clock(rank: Int64?, hlc: Int64?, peer: String?) -> PropertyClock {
        PropertyClock(rank: PropertyClock.Rank(rawValue: Int(rank ?? 0)) ?? .insert, timestamp: HybridTimestamp(rawValue: hlc ?? 0), peer: peer ?? "")
    }

    /// The history floor (``historyFloorKey``) read in `db`.
    static func historyFloor(in db: Database) throws -> [String: Int64] {
        guard let value = try Row.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [historyFloorKey])?[0] as DatabaseValue?,
              !value.isNull else { return [:] }
        guard let text = String.fromDatabaseValue(value), let floor = try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8)) else {
            throw DamagedValue(description: "sk_metadata, key \(historyFloorKey): holds \("\(value)".prefix(80)), not the JSON of a history floor")
        }
        return floor
    }

    /// Raises the history floor to `vector` (per peer, the larger value is kept).
    static func raiseHistoryFloor(to vector: [String: Int64], in db: Database) throws {
        var floor = try historyFloor(in: db)
        for (peer, sequence) in vector { floor[peer] = max(floor[peer] ?? 0, sequence) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [historyFloorKey, String(decoding: try encoder.encode(floor), as: UTF8.self)])
    }

    /// The history floor: per peer, the sequence number up to which the history may be missing.
    public func historyFloor() throws -> [String: Int64] {
        try read("read the history floor") { try Self.historyFloor(in: $0) }
    }
}

extension SyncStore {
    /// Merges a baseline (its body, and what it covers) into the store, in one SQLite transaction:
    /// every value with its own clock, tombstones winning, then the watermarks raised to what the
    /// baseline covers (never this peer's own), the clock moved up, and the history floor raised
    /// (the transactions it stands for are not in the history).
    ///
    /// - Throws: ``StoreError``; `WireError` for a malformed body (nothing is changed then).
    public func applyBaseline(_ body: [UInt8], coverage: BaselineCoverage) throws -> RemoteImportReport {
        try applyBaseline(coverage: coverage) { part in try body.withUnsafeBytes { try part($0) } }
    }

    /// Merges a baseline whose body `produce` hands to the closure it is given in parts, in order
    /// (``BaselineEncoder/init(handingOnEvery:to:)``), as ``applyBaseline(_:coverage:)`` merges a
    /// whole body: in one SQLite transaction, so that a body of any size is merged with the memory
    /// of one part, and an error (`produce`'s own too) leaves the store as it was.
    ///
    /// - Throws: ``StoreError``; `WireError` for a malformed part; what `produce` throws.
    public func applyBaseline(coverage: BaselineCoverage,
                              parts produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> RemoteImportReport {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            return try database.write { db in
                let applier = try RemoteTransactionApplier(store: self, db: db)
                var names: [String] = []
                try produce { part in
                    // Wrapped here: `produce` may carry the error through code of its own (another store's export).
                    do {
                        try applier.applyBaseline(part, names: &names)
                    } catch where StoreError.comesFromTheStore(error) {
                        throw StoreError.wrapping(error, path: path, action: "apply a baseline")
                    }
                }
                var covered = coverage.vector
                covered[metadata.peerID] = nil
                for (peer, sequence) in covered {
                    try db.execute(sql: """
                        INSERT INTO sk_peer (peer, is_local, first_seen, last_seq) VALUES (?, 0, ?, ?)
                        ON CONFLICT (peer) DO UPDATE SET last_seq = MAX(last_seq, excluded.last_seq)
                        """, arguments: [peer, Date().timeIntervalSince1970, sequence])
                }
                try HistoryCounters.observe(coverage.latestClock, in: db)
                try Self.raiseHistoryFloor(to: covered, in: db)
                try Self.markImportFixPending(in: db)
                try applier.finishBlobFiles()
                return applier.report
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "apply a baseline")
        }
    }
}
