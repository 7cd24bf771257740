import Foundation
import GRDB
import ObjectModel

/// Reads an Apple Core Data SQLite store without changing it: its model, its record counts and
/// its records, entity by entity, in primary-key order.
///
/// The source is never opened by SQLite: the main file and its `-wal` (and a hot `-journal`) are
/// copied into a private temporary folder, and the copy is opened, so committed rows that are only
/// in the `-wal` are seen and not one byte is written next to the source. The copy needs as much
/// free space as the store and is removed by ``close()`` or when the reader is released.
///
/// The model is, in this order: the `model` given to ``open(at:model:)``; the store's own
/// `Z_MODELCACHE`; or one inferred from `Z_PRIMARYKEY` and the tables (see ``modelSource``).
///
/// ```swift
/// let reader = try CoreDataStoreReader.open(at: URL(fileURLWithPath: "Books.sqlite"))
/// print(reader.modelSource.sentence, reader.entityCounts)
/// try reader.forEachRecord(entity: "Book") { record in
///     print(record.globalID, record.values)
///     return true
/// }
/// ```
public final class CoreDataStoreReader: Sendable {
    /// The store's path, as given.
    public let path: String
    /// The model records are read with.
    public let model: ManagedModel
    /// Where ``model`` came from.
    public let modelSource: ModelSource
    /// ``ModelSource/sentence``, followed by why the model cache was not used when that happened.
    public let modelSentence: String
    /// Facts about what could not be decoded, mapped or inferred (empty when there are none).
    public let notes: [String]
    /// `Z_METADATA.Z_UUID`, the store UUID in every global ID.
    public let storeUUID: String
    /// `Z_METADATA.Z_VERSION`.
    public let storeVersion: Int64
    /// `NSPersistenceFrameworkVersion` from the store metadata, when present.
    public let frameworkVersion: Int64?
    /// Rows of exactly each entity (`Z_ENT` equal to the entity's number), by entity name.
    public let entityCounts: [String: Int]
    /// By entity table, how many of its rows no record stands for (a `Z_ENT` that names no
    /// entity with records of its own there, a `Z_PK` that is not a positive integer; see
    /// ``forEachUnreadRow(in:afterPlace:_:)``); tables without such rows are left out.
    public let unreadRowCounts: [String: Int]

    let snapshot: StoreSnapshot
    let queue: DatabaseQueue
    let schema: CoreDataSchema
    let mapping: StoreMapping
    let values: StoredValueDecoder

    init(
        path: String, model: ManagedModel, modelSource: ModelSource, modelSentence: String, notes: [String],
        entityCounts: [String: Int], unreadRowCounts: [String: Int], snapshot: StoreSnapshot, queue: DatabaseQueue,
        schema: CoreDataSchema, mapping: StoreMapping
    ) {
        self.path = path
        self.model = model
        self.modelSource = modelSource
        self.modelSentence = modelSentence
        self.notes = notes
        self.storeUUID = schema.storeUUID
        self.storeVersion = schema.storeVersion
        self.frameworkVersion = schema.frameworkVersion
        self.entityCounts = entityCounts
        self.unreadRowCounts = unreadRowCounts
        self.snapshot = snapshot
        self.queue = queue
        self.schema = schema
        self.mapping = mapping
        self.values = StoredValueDecoder(externalFolders: StoredValueDecoder.externalFolders(for: snapshot.sourcePath))
    }

    deinit {
        try? queue.close()
        snapshot.remove()
    }

    /// Opens the store at `url` through a private copy.
    ///
    /// - Parameters:
    ///   - url: the store's main `.sqlite` file; its `-wal` and `-journal`, when present, are read with it.
    ///   - model: the model the store was made with, if known; it must map onto the store exactly
    ///     (entities, parents, columns and join tables).
    /// - Throws: ``CoreDataStoreError``: `.missingInput` for a missing or unreadable file; `.badInput`
    ///   for a file that is not SQLite, a SQLite file that is not a Core Data store, or a given model
    ///   that does not match; `.storeBusy` when the store kept changing during the copy;
    ///   `.cannotCreateOutput` or `.ioFailure` when the copy cannot be made.
    public static func open(at url: URL, model given: ManagedModel? = nil) throws(CoreDataStoreError) -> CoreDataStoreReader {
        let snapshot = try StoreSnapshot.make(of: url)
        let path = snapshot.sourcePath
        var queue: DatabaseQueue?
        do {
            var configuration = Configuration()
            configuration.label = "storekeep.coredata"
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
            let opened = try DatabaseQueue(path: snapshot.databasePath, configuration: configuration)
            queue = opened
            let schema = try opened.read { db in try CoreDataSchema.read(db) }
            let resolved = try resolveModel(given: given, schema: schema, path: path)
            if let problem = resolved.model.nameProblems().first {
                throw CoreDataStoreError(
                    path: path, problem: "\(resolved.source.sentence.prefix { $0 != ";" }): \(problem); storekeep carries names exactly or not at all",
                    hint: "give a model with usable names (--model), or restore the store from a backup")
            }
            try requireKeyColumns(schema: resolved.schema, path: path)
            let counts = try opened.read { db in try countEntities(schema: resolved.schema, db: db) }
            let unread = try opened.read { db in
                try countUnreadRows(schema: resolved.schema, mapping: resolved.mapping, model: resolved.model, db: db)
            }
            return CoreDataStoreReader(
                path: path, model: resolved.model, modelSource: resolved.source, modelSentence: resolved.sentence,
                notes: resolved.notes, entityCounts: counts, unreadRowCounts: unread, snapshot: snapshot, queue: opened,
                schema: resolved.schema, mapping: resolved.mapping)
        } catch {
            try? queue?.close()
            snapshot.remove()
            throw openingError(error, path: path)
        }
    }

    /// Releases the SQLite connection and removes the private copy; later reads fail.
    public func close() {
        try? queue.close()
        snapshot.remove()
    }

    /// `x-coredata://<store UUID>/<entity>/p<primaryKey>`.
    public func globalID(entity: String, primaryKey: Int64) -> String {
        GlobalIDPrefixes.prefix(storeUUID: storeUUID, entity: entity) + String(primaryKey)
    }

    /// The summary `storekeep inspect` prints.
    public var summary: CoreDataStoreSummary {
        let entities = schema.entityRows.map { row in
            CoreDataStoreSummary.Entity(
                name: row.name, parent: schema.entityRow(row.superNumber)?.name,
                isAbstract: model.entity(named: row.name)?.isAbstract ?? false,
                table: schema.table(ofEntity: row.number), count: entityCounts[row.name] ?? 0)
        }
        var relationshipCount = 0
        for entity in model.entities { relationshipCount += entity.relationships.count }
        return CoreDataStoreSummary(
            path: path, storeVersion: storeVersion, storeUUID: storeUUID, frameworkVersion: frameworkVersion,
            modelSource: modelSource.rawValue, modelSentence: modelSentence, entities: entities,
            relationshipCount: relationshipCount, joinTableCount: mapping.joinTables.count, notes: notes)
    }

    /// Every entity table has the `Z_PK` and `Z_ENT` columns rows are told apart by.
    static func requireKeyColumns(schema: CoreDataSchema, path: String) throws(CoreDataStoreError) {
        for table in Set(schema.entityRows.map(\.table)).sorted() {
            for column in ["Z_PK", "Z_ENT"] where !schema.has(table, column: column) {
                throw CoreDataStoreError(
                    path: path, problem: "table \(table) has no \(column) column, which every Core Data entity table has",
                    hint: "the store is damaged (or not written by Core Data); restore it from a backup")
            }
        }
    }

    static func countEntities(schema: CoreDataSchema, db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in schema.entityRows { counts[row.name] = 0 }
        let tables = Dictionary(grouping: schema.entityRows) { schema.table(ofEntity: $0.number) }
        for (table, entities) in tables.sorted(by: { $0.key < $1.key }) {
            // A filtered count per entity reads one column of each row; grouping also sorts, about
            // three times the cost: it pays only for tables shared by many entities.
            if entities.count <= 3 {
                for entity in entities {
                    counts[entity.name] = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) WHERE Z_ENT = ?", arguments: [entity.number]) ?? 0
                }
                continue
            }
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, COUNT(*) FROM \(table.quotedSQLIdentifier) GROUP BY Z_ENT") {
                // As stored: a Z_ENT of text would stop the process through GRDB's Int64 conversion.
                if case .int64(let number) = (row[0] as DatabaseValue).storage, let entity = schema.entityRow(number),
                   case .int64(let count) = (row[1] as DatabaseValue).storage {
                    counts[entity.name] = Int(count)
                }
            }
        }
        return counts
    }

    static func openingError(_ error: any Error, path: String) -> CoreDataStoreError {
        if let error = error as? CoreDataStoreError { return error }
        if let problem = error as? CoreDataSchema.SchemaProblem {
            switch problem {
            case .notCoreData:
                return CoreDataStoreError(
                    path: path, problem: "a SQLite database but not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA tables)",
                    hint: "give the path of a store written by Core Data")
            case .noMetadata:
                return CoreDataStoreError(
                    path: path, problem: "a Core Data store without a Z_METADATA row",
                    hint: "the store is damaged; restore it from a backup")
            case .unusableName(let what, let name, let reason):
                return CoreDataStoreError(
                    path: path, problem: "\(what), \"\(name.shownInMessage)\", \(reason); storekeep carries it exactly or not at all",
                    hint: "the store was not written by Core Data (or is damaged); rename it in a copy of the store, or restore the store from a backup")
            case .missingTable(let entity, let number, let table):
                return CoreDataStoreError(
                    path: path, problem: "Z_PRIMARYKEY names entity \(entity) (Z_ENT \(number)), but the store has no table \(table) for its rows",
                    hint: "the store is damaged (a table was dropped); restore it from a backup")
            }
        }
        if let error = error as? DatabaseError {
            return readingError(error, path: path, what: "read it")
        }
        return CoreDataStoreError(path: path, problem: "cannot be read: \(error)", failureKind: .ioFailure)
    }
}
