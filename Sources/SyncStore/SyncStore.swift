import Foundation
import GRDB
import ObjectModel

/// One replica of an object graph in a single SQLite file (WAL mode), with its history.
///
/// A store is created for one model version, with a content name (its sync namespace) and a
/// peer ID; every save is one history transaction. The model is kept inside the store, so a store
/// can be opened without its model file; given a model, `open` refuses a store made for another.
///
/// ```swift
/// let store = try SyncStore.create(at: "/tmp/speeches.store", model: model, contentName: "SpeechTimer")
/// let speech = try store.save(author: "import") { tx in
///     try tx.insert("Speech", values: ["title": .string("Keynote")])
/// }
/// try store.record(speech)?.values["title"]   // .string("Keynote")
/// ```
public final class SyncStore: Sendable {
    /// The store file.
    public let path: String
    /// What the store says about itself.
    public let metadata: StoreMetadata
    /// The model version the store holds records of (read from the store itself).
    public let model: ManagedModel
    /// Whether the store was opened read-only.
    public let isReadOnly: Bool

    let layout: StoreLayout
    /// Per exact entity, what writing and digesting its records needs.
    let plans: [String: EntityPlan]
    /// Per exact entity, the properties sync carries and their numbers.
    let syncSchemas: [String: SyncEntitySchema]
    let database: DatabaseQueue
    let blobs: BlobStore

    private init(path: String, metadata: StoreMetadata, model: ManagedModel, database: DatabaseQueue, readOnly: Bool, packedBlobs: PackedBlobs? = nil) {
        self.path = path
        self.metadata = metadata
        self.model = model
        self.database = database
        self.isReadOnly = readOnly
        let layout = StoreLayout(model: model, seedConfiguration: metadata.seedConfiguration)
        self.layout = layout
        self.plans = Dictionary(uniqueKeysWithValues: model.entities.compactMap { entity in
            EntityPlan(store: layout, model: model, entity: entity.name).map { (entity.name, $0) }
        })
        self.syncSchemas = Dictionary(uniqueKeysWithValues: model.entities.compactMap { entity in
            SyncEntitySchema(entity: entity.name, layout: layout, model: model).map { (entity.name, $0) }
        })
        self.blobs = BlobStore(storePath: path, packed: packedBlobs)
    }

    /// The folder that holds the store's external binary values.
    public var blobDirectory: URL { blobs.directory }

    /// Creates a new, empty store for `model`.
    ///
    /// The store is built under a temporary name and renamed into place when complete, so a
    /// failure never leaves a half-made store at `path`.
    ///
    /// - Parameters:
    ///   - path: the store file to create; it must not exist.
    ///   - model: the model version the store is for.
    ///   - contentName: the sync namespace (letters, digits, `.`, `_`, `-`; used as a folder name).
    ///   - peerID: this replica's peer ID; a new UUID when `nil`.
    ///   - accountToken: the account the data belongs to, when known.
    ///   - deferIndexes: create the store without its secondary indexes, for a bulk load that ends
    ///     with ``BulkLoad/buildIndexes()``; until then the store holds the `indexesPending` mark and
    ///     global IDs are not checked for uniqueness.
    ///   - seedConfiguration: make the seed store of this seed configuration of `model` (its
    ///     entities only; written by `storekeep seed-store build`, never by ``save(author:_:)``).
    /// - Throws: ``StoreError`` (`cannotCreate`, `unusableModel`, `invalidRequest`, `io`).
    public static func create(
        at path: String, model: ManagedModel, contentName: String, peerID: String? = nil,
        accountToken: String? = nil, deferIndexes: Bool = false, seedConfiguration: String? = nil
    ) throws -> SyncStore {
        prepareSQLite()
        try validate(name: contentName, what: "content name", path: path)
        let peer = peerID ?? UUID().uuidString
        try validate(name: peer, what: "peer ID", path: path)
        let problems = model.structuralProblems() + model.seedConfigurationProblems()
        guard problems.isEmpty else {
            throw StoreError(.unusableModel, path: path,
                             message: "model \(model.versionName) cannot hold a store: \(problems.joined(separator: "; "))",
                             hint: "fix the model file and try again")
        }
        if let seedConfiguration, !model.seedConfigurations.contains(where: { $0.name == seedConfiguration }) {
            throw StoreError(.invalidRequest, path: path, message: "model \(model.versionName) has no seed configuration named '\(seedConfiguration)'",
                             hint: "mark the configuration as seed data (docs/models.md, \"Seed configurations\")")
        }
        let collisions = StoreLayout(model: model, seedConfiguration: seedConfiguration).nameCollisions()
        guard collisions.isEmpty else {
            throw StoreError(.unusableModel, path: path,
                             message: "model \(model.versionName) cannot hold a store: \(collisions.joined(separator: "; "))",
                             hint: "rename one of each pair in the model (docs/format.md, \"Names\", says how model names become SQLite names)")
        }
        let fileManager = FileManager.default
        let url = URL(fileURLWithPath: path)
        if fileManager.fileExists(atPath: path) || fileManager.fileExists(atPath: path + "-wal") {
            throw StoreError(.cannotCreate, path: path, message: "already exists; refusing to overwrite it",
                             hint: "choose a new path, or remove the old store yourself if it is no longer needed")
        }
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
              fileManager.isWritableFile(atPath: folder.path) else {
            throw StoreError(.cannotCreate, path: path, message: "the folder \(folder.path) does not exist or is not writable",
                             hint: "create the folder first, or choose another path")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).creating-\(ProcessInfo.processInfo.processIdentifier)").path
        removeLeftoversOfKilledCreations(of: url)
        for suffix in ["", "-wal", "-shm", "-journal"] { try? fileManager.removeItem(atPath: temporary + suffix) }
        do {
            let queue = try DatabaseQueue(path: temporary, configuration: configuration(readOnly: false))
            _ = try queue.inDatabase { db in
                // Before the first table and the switch to WAL, the only time the page size can be set.
                try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
                return try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try queue.write { db in
                let layout = StoreLayout(model: model, seedConfiguration: seedConfiguration)
                try StoreSchema.create(in: db, model: model, layout: layout, deferIndexes: deferIndexes)
                let now = Date()
                var values: [(String, String?)] = [
                    ("storeUUID", UUID().uuidString), ("formatVersion", String(StoreSchema.formatVersion)),
                    ("modelName", model.name), ("modelVersion", model.versionName),
                    ("modelVersionIdentifier", model.versionIdentifier), ("modelHash", model.versionHash),
                    ("contentName", contentName), ("peerID", peer), ("accountToken", accountToken),
                    ("syncEnabled", "0"), ("createdAt", String(now.timeIntervalSince1970)),
                ]
                if let seedConfiguration { values.append((Self.seedConfigurationKey, seedConfiguration)) }
                for (key, value) in values {
                    try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?)", arguments: [key, value])
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let definition = String(decoding: try encoder.encode(model), as: UTF8.self)
                try db.execute(sql: "INSERT INTO sk_model (version, hash, definition) VALUES (?, ?, ?)",
                               arguments: [model.versionName, model.versionHash, definition])
                try db.execute(sql: "INSERT INTO sk_peer (peer, is_local, first_seen) VALUES (?, 1, ?)",
                               arguments: [peer, now.timeIntervalSince1970])
            }
            // Everything into the main file before it is renamed: closing checkpoints the WAL too,
            // but says nothing when that fails (a full disk), and the file renamed without its WAL
            // would be a damaged store that a rerun could not open.
            _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try queue.close()
            if let size = (try? fileManager.attributesOfItem(atPath: temporary + "-wal"))?[.size] as? Int, size > 0 {
                throw DatabaseError(resultCode: .SQLITE_FULL, message: "the write-ahead log could not be written back")
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? fileManager.removeItem(atPath: temporary + suffix) }
            var failure = StoreError.wrapping(error, path: path, action: "create the store")
            if failure.reason == .io { failure.reason = .cannotCreate }   // nothing was made: the output cannot be created
            throw failure
        }
        do {
            // Never over a store made meanwhile by another process: published only if the name is free.
            try DurableFile.publish(temporary, as: path, replacing: false)
        } catch let failure as DurableFile.Failure {
            guard failure.code == EEXIST else {
                throw StoreError(.cannotCreate, path: path, message: "cannot move the new store into place: \(failure.reason)",
                                 hint: "check free space and the folder's permissions")
            }
            throw StoreError(.cannotCreate, path: path, message: "already exists; refusing to overwrite it",
                             hint: "choose a new path, or remove the old store yourself if it is no longer needed")
        }
        return try open(at: path, buildingPendingIndexes: false)
    }

    /// Opens an existing store.
    ///
    /// - Parameters:
    ///   - path: the store file.
    ///   - expecting: when given, the store must have been made for this model version; a store
    ///     made for another version is refused with a message naming both versions and the
    ///     entities that differ.
    ///   - readOnly: open without the right to write (nothing is written to the file). A store of an
    ///     earlier format opened for writing is upgraded in place to the current format.
    ///   - buildingPendingIndexes: for a store opened for writing whose indexes a bulk load left
    ///     unbuilt (``create(at:model:contentName:peerID:accountToken:deferIndexes:)``), build them
    ///     now (the default), so that ordinary writes meet every index; a migration resuming its bulk
    ///     load passes `false`.
    ///   - packedBlobs: where the store's blob files are read instead of its blob folder (a
    ///     snapshot baseline's, read where they lie in it; each read checked against its digest).
    /// - Throws: ``StoreError`` (`notFound`, `notSQLite`, `notAStore`, `unknownFormat`, `damaged`,
    ///   `modelMismatch`, `busy`, `io`; `invalidRequest` when pending indexes find two records with
    ///   one global ID).
    public static func open(
        at path: String, expecting expected: ManagedModel? = nil, readOnly: Bool = false, buildingPendingIndexes: Bool = true,
        packedBlobs: PackedBlobs? = nil
    ) throws -> SyncStore {
        prepareSQLite()
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, path: path, message: "no such store", hint: "check the path, or create a store with `storekeep init`")
        }
        try FileSniffer.requireSQLite(at: path)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: readOnly))
        } catch {
            throw StoreError.wrapping(error, path: path, action: "open the store")
        }
        var (metadata, model) = try StoreReader.readHeader(of: queue, path: path)
        if !readOnly && metadata.formatVersion < StoreSchema.formatVersion {
            do {
                try queue.write { db in try StoreSchema.upgrade(in: db, from: metadata.formatVersion, layout: StoreLayout(model: model, seedConfiguration: metadata.seedConfiguration)) }
            } catch {
                throw StoreError.wrapping(error, path: path, action: "upgrade the store to format \(StoreSchema.formatVersion)")
            }
            metadata.formatVersion = StoreSchema.formatVersion
        }
        if let expected {
            try StoreReader.requireModel(expected, matches: model, metadata: metadata, path: path)
        }
        let store = SyncStore(path: path, metadata: metadata, model: model, database: queue, readOnly: readOnly, packedBlobs: packedBlobs)
        if !readOnly, buildingPendingIndexes, try store.hasPendingIndexes() {
            try store.buildPendingIndexes()
        }
        return store
    }

    /// Removes `.<name>.creating-<pid>` files (and their `-wal`, `-shm`, `-journal`) left beside
    /// `url` by a creation whose process no longer exists.
    private static func removeLeftoversOfKilledCreations(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).creating-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid != ProcessInfo.processInfo.processIdentifier else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(Double(busyMilliseconds) / 1_000)
        configuration.label = "storekeep.store"
        return configuration
    }

    /// Whether `name` can be a content name or a peer ID (``SyncName``'s rule: each becomes a
    /// folder name in a container).
    static func isUsableName(_ name: String) -> Bool {
        SyncName.isValid(name)
    }

    /// Throws ``StoreError`` `invalidRequest` unless `name` (a `what`: "content name", "peer ID")
    /// follows ``SyncName``'s rule.
    static func validate(name: String, what: String, path: String) throws {
        guard SyncName.isValid(name) else {
            throw StoreError(.invalidRequest, path: path, message: "the \(what) '\(name)' is not usable", hint: SyncName.rule)
        }
    }
}
