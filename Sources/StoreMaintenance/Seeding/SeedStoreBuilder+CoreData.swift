import Foundation
import LegacyFormats
import ObjectModel
import SyncStore

/// A seed store built from an Apple Core Data SQLite store (`seed-store build --from-sqlite`
/// given an app's shipped `Postcodes.sqlite`): read with the reader `migrate` uses, each record
/// given the global ID derived from its entity and seed key (as `seed` and a seed set's build
/// derive it), its to-one and many-to-many references (`Z_PK`s) turned into those IDs.
extension SeedStoreBuilder {
    /// The `source` a Core Data store is recorded as.
    static let coreDataSource = "coreData"

    /// The identity of a Core Data store given to copy: named after its file (without `.sqlite`),
    /// version 1, and the SHA-256 of the file and its `-wal`, so that another file builds again.
    static func coreDataIdentity(of file: String) throws -> SourceIdentity {
        var hasher = SHA256()
        for part in [file, file + "-wal"] where part == file || FileManager.default.fileExists(atPath: part) {
            guard let handle = FileHandle(forReadingAtPath: part) else {
                throw MaintenanceError(path: part, problem: "cannot be read", hint: "check the file's permissions", failureKind: .missingInput)
            }
            defer { try? handle.close() }
            hasher.update("\(URL(fileURLWithPath: part).lastPathComponent)\n")
            while true {
                let chunk: Data
                do {
                    chunk = try handle.read(upToCount: 1 << 20) ?? Data()
                } catch {
                    throw MaintenanceError(path: part, problem: "cannot be read: \(error.localizedDescription)", hint: "check the disk", failureKind: .ioFailure)
                }
                if chunk.isEmpty { break }
                hasher.update(chunk)
            }
        }
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return SourceIdentity(kind: coreDataSource, path: file, seedSet: name, version: 1, checksum: hasher.finalizeHex())
    }

    /// Builds the seed store at `temporary` from the Core Data store `file`; returns how many
    /// records it holds.
    ///
    /// Every record of a seed entity of `configuration` is read (records of other entities in the
    /// file are not); each must carry its seed key (`storekeep.seedKey`), no two of an entity's
    /// family the same one, and every reference must name a record read. Anything else refuses
    /// the build, naming the entity and the record's `Z_PK`; nothing is installed.
    ///
    /// - Throws: ``MaintenanceError`` `badInput`, `CoreDataStoreError` for a file that cannot be read
    ///   as a Core Data store, `StoreError`.
    func buildFromCoreData(_ file: String, to temporary: String, configuration: String, user: SyncStore, identity: SourceIdentity) throws -> Int {
        let reader = try Self.openCoreData(file, model: user.model)
        defer { reader.close() }
        let entities = user.model.seedEntities(of: configuration).filter { !$0.isAbstract }.map(\.name)
        func refuse(_ problem: String, hint: String = "fix the store the app ships, or build the seed store from a seed set (--from SEEDSET)") -> MaintenanceError {
            MaintenanceError(path: file, problem: problem, hint: hint, failureKind: .badInput)
        }
        // 1. The derived global ID of every record, by its Core Data URI.
        var derived: [String: GlobalID] = [:]
        var keyOf: [GlobalID: String] = [:]
        for entity in entities {
            guard reader.model.entity(named: entity) != nil else {
                throw refuse("has no entity \(entity) of seed configuration \(configuration)", hint: "give the Core Data store of this model's configuration \(configuration)")
            }
            let keyNames = user.model.facts(of: entity).seedKey
            guard !keyNames.isEmpty else {
                throw refuse("entity \(entity) has no storekeep.seedKey in model \(user.model.versionName): a seed record's global ID is derived from it",
                             hint: "give \(entity) a storekeep.seedKey (docs/models.md)")
            }
            try reader.forEachRecord(entity: entity) { record in
                let place = "\(entity) record Z_PK \(record.primaryKey)"
                if let problem = record.problem { throw refuse("\(place) cannot be read exactly: \(problem)") }
                var key: [String: AttributeValue] = [:]
                for name in keyNames {
                    guard let value = record.values[name], !value.isNull else {
                        throw refuse("\(place) has no value for its seed key \(name): its global ID cannot be derived")
                    }
                    key[name] = value
                }
                let id = user.seedGlobalID(entity: entity, values: AttributeValues(key))
                if let other = keyOf[id] { throw refuse("\(place) has the same seed key as \(other)") }
                keyOf[id] = place
                derived[record.globalID] = id
                return true
            }
        }
        // 2. The records, with their references turned into derived IDs, loaded in batches.
        let store = try SyncStore.create(at: temporary, model: user.model, contentName: user.metadata.contentName, peerID: "seed-store",
                                         seedConfiguration: configuration)
        let load = try store.beginBulkLoad(key: "seed-store", version: String(identity.version), description: "Core Data store \(identity.seedSet)",
                                           source: file, checksum: identity.checksum, author: Self.author)
        let seed = SeedMark(set: identity.seedSet, version: identity.version)
        var batch: [ImportRecord] = []
        var loaded = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            loaded += batch.count
            do {
                try load.importBatch(batch, checkpoint: MigrationCheckpoint(stream: "core data", position: Int64(loaded), rows: loaded, rejected: 0))
            } catch let error as StoreError where error.reason == .invalidRequest {
                throw refuse(error.message)
            }
            batch.removeAll(keepingCapacity: true)
        }
        for entity in entities {
            let joined = CoreDataEntityStream.joinedToManyNames(of: entity, in: reader.model)
            let attributes = Set(user.model.attributes(of: entity).filter { !$0.isTransient }.map(\.name))
            try reader.forEachRecord(entity: entity) { record in
                let place = "\(entity) record Z_PK \(record.primaryKey)"
                func target(_ uri: String, of relationship: String) throws -> GlobalID {
                    guard let id = derived[uri] else { throw refuse("\(place): \(relationship) points at \(uri), which is no record of seed configuration \(configuration)") }
                    return id
                }
                var imported = CoreDataEntityStream.importRecord(record, joined: joined)
                guard let id = derived[record.globalID] else { throw refuse("\(place) changed while it was read") }
                imported.globalID = id
                imported.values = AttributeValues(record.values.dictionary.filter { attributes.contains($0.key) })
                imported.toOne = try Dictionary(uniqueKeysWithValues: record.toOne.map { ($0.key, try target($0.value, of: $0.key)) })
                imported.toMany = try Dictionary(uniqueKeysWithValues: record.toMany.filter { joined.contains($0.key) }.map { name, uris in
                    (name, try uris.map { try target($0, of: name) })
                })
                imported.seed = seed
                batch.append(imported)
                if batch.count >= 10_000 { try flush() }
                return true
            }
        }
        try flush()
        try load.finish(success: true)
        try store.recordSeedStoreFacts(identity.facts)
        return loaded
    }

    /// Opens the Core Data store with the user's model (the app's, which its shipped store was made
    /// with), else with the store's own (its model cache, or one inferred from its tables).
    private static func openCoreData(_ file: String, model: ManagedModel) throws -> CoreDataStoreReader {
        do {
            return try CoreDataStoreReader.open(at: URL(fileURLWithPath: file), model: model)
        } catch let first {
            guard first.failureKind == .badInput, let own = try? CoreDataStoreReader.open(at: URL(fileURLWithPath: file)) else { throw first }
            return own
        }
    }
}
