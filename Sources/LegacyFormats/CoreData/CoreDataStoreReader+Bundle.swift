import Foundation
import GRDB
import ObjectModel

extension CoreDataStoreReader {
    /// Opens the store at `url` (through a private copy, as ``open(at:model:)``) with the version of
    /// `bundle` it was made with: found by Core Data's entity version hashes, then by the model in
    /// its `Z_MODELCACHE`, then by its tables and columns (``CoreDataVersionMatch/method`` says which).
    ///
    /// - Parameters:
    ///   - versionOverride: the store's version by name (`--model-version`), used instead of finding it.
    ///   - preferredVersion: the version taken when several fit equally by hash (the migration's
    ///     target, as Core Data opens a store with its current model when it can); never among
    ///     versions that fit the model cache equally (several fit: the error asks for the version).
    /// - Throws: ``CoreDataStoreError``: as ``open(at:model:)``; `.badInput` when no version fits
    ///   (naming the closest version and what differs) or several fit (naming them); `.usage` for an
    ///   override the bundle does not have.
    public static func open(
        at url: URL, bundle: ModelBundle, versionOverride: String?, preferredVersion: String?
    ) throws(CoreDataStoreError) -> (reader: CoreDataStoreReader, match: CoreDataVersionMatch) {
        let snapshot = try StoreSnapshot.make(of: url)
        let path = snapshot.sourcePath
        var queue: DatabaseQueue?
        do {
            var configuration = Configuration()
            configuration.label = "storekeep.coredata"
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
            let opened = try DatabaseQueue(path: snapshot.databasePath, configuration: configuration)
            queue = opened
            let (schema, hashes) = try opened.read { db in (try CoreDataSchema.read(db), try Self.versionHashes(db)) }
            let finder = CoreDataVersionFinder(schema: schema, storeHashes: hashes, bundle: bundle, path: path)
            let match = try finder.find(override: versionOverride, preferred: preferredVersion)
            let resolved = try resolveModel(given: match.version, schema: schema, path: path)
            try requireKeyColumns(schema: resolved.schema, path: path)
            let counts = try opened.read { db in try countEntities(schema: resolved.schema, db: db) }
            let unread = try opened.read { db in
                try countUnreadRows(schema: resolved.schema, mapping: resolved.mapping, model: resolved.model, db: db)
            }
            let reader = CoreDataStoreReader(
                path: path, model: resolved.model, modelSource: resolved.source, modelSentence: match.sentence,
                notes: resolved.notes, entityCounts: counts, unreadRowCounts: unread, snapshot: snapshot, queue: opened,
                schema: resolved.schema, mapping: resolved.mapping)
            return (reader, match)
        } catch {
            try? queue?.close()
            snapshot.remove()
            throw openingError(error, path: path)
        }
    }

    /// The store's `NSStoreModelVersionHashes`: Core Data's 32-byte version hash of each entity, by
    /// entity name (empty when the metadata holds none; values that are not 32 bytes are left out).
    public func storeVersionHashes() throws -> [String: [UInt8]] {
        try queue.read { db in try Self.versionHashes(db) }
    }

    /// Reads `NSStoreModelVersionHashes` from `Z_METADATA.Z_PLIST`.
    static func versionHashes(_ db: Database) throws -> [String: [UInt8]] {
        // Read as a raw value: a damaged store may hold anything in Z_PLIST.
        guard let raw = try DatabaseValue.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA LIMIT 1"),
              let plist = Data.fromDatabaseValue(raw),
              let metadata = try? PropertyListSerialization.propertyList(from: plist, options: [], format: nil) as? [String: Any],
              let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Any] else { return [:] }
        var result: [String: [UInt8]] = [:]
        for (name, value) in hashes {
            guard let data = value as? Data, data.count == 32 else { continue }
            result[name] = [UInt8](data)
        }
        return result
    }
}
