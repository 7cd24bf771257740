import Foundation
import ObjectModel
import SyncStore

/// The steps of a seed-store build: what the source is, the build itself, the checks, and the
/// references the new seed store would leave dangling.
extension SeedStoreBuilder {
    /// The history author of a seed store's records.
    static let author = "storekeep.seed-store"

    /// What a build is made from, as recorded in the seed store (`seed*` keys of `sk_metadata`).
    struct SourceIdentity {
        var kind: String
        var path: String
        var seedSet: String
        var version: Int
        var checksum: String

        var facts: [String: String] {
            ["seedSource": kind, "seedSet": seedSet, "seedVersion": String(version), "seedChecksum": checksum,
             "seedBuilt": String(Date().timeIntervalSince1970)]
        }
    }

    /// The identity of the source: a seed set's name, version and file checksum, what a seed store
    /// file says it was built from (after checking it is this configuration's seed store), or a
    /// Core Data store's (``coreDataIdentity(of:)``).
    func sourceIdentity(configuration: String, user: SyncStore) throws -> SourceIdentity {
        switch source {
        case .seedSet(let set):
            return SourceIdentity(kind: "seedSet", path: set.path, seedSet: set.name, version: set.version, checksum: set.checksum)
        case .sqlite(let file):
            if try SourceKind.detect(path: file) == .coreDataStore { return try Self.coreDataIdentity(of: file) }
            let store = try openSeedStoreFile(file, configuration: configuration, user: user)
            let facts = try store.seedStoreFacts()
            guard let name = facts["seedSet"], let version = facts["seedVersion"].flatMap({ Int($0) }), let checksum = facts["seedChecksum"] else {
                throw MaintenanceError(path: file, problem: "does not say which seed set it was built from (\(StoreLayoutDescription.metadataTable) has no seedSet, seedVersion, seedChecksum)",
                                       hint: "copy a seed store made by `storekeep seed-store build`, or build one from the seed set (--from)", failureKind: .badInput)
            }
            return SourceIdentity(kind: "sqlite", path: file, seedSet: name, version: version, checksum: checksum)
        }
    }

    /// A seed store file given to copy, opened read-only once it is known to be configuration
    /// `configuration`'s seed store for the user's model.
    private func openSeedStoreFile(_ file: String, configuration: String, user: SyncStore) throws -> SyncStore {
        let store: SyncStore
        do {
            store = try SyncStore.open(at: file, readOnly: true)
        } catch let error as StoreError where error.reason == .notAStore || error.reason == .notSQLite {
            throw MaintenanceError(path: file, problem: "is neither a seed store made by storekeep nor a Core Data store: \(error.message)",
                                   hint: "give a seed store built by `storekeep seed-store build`, the app's Core Data store of the configuration, or build from a seed set (--from SEEDSET)",
                                   failureKind: .badInput)
        }
        if let problem = SyncStore.seedStoreMismatch(store.metadata.seedConfiguration, model: store.model, for: configuration, of: user.model) {
            throw MaintenanceError(path: file, problem: problem, hint: "copy the seed store built for this model's configuration \(configuration)", failureKind: .badInput)
        }
        return store
    }

    /// Builds the seed store at `temporary` from a seed set; returns how many records it holds.
    func build(_ temporary: String, from set: SeedSet, configuration: String, user: SyncStore, identity: SourceIdentity) throws -> Int {
        var records: [ResolvedSeedRecord] = []
        var ids = Set<GlobalID>()
        for entry in set.records {
            func fail(_ problem: String) -> SeedSetError { SeedSetError(path: set.path, line: entry.line, problem: problem) }
            guard user.model.seedConfiguration(of: entry.entity) == configuration else {
                throw fail("entity \(entry.entity) is not seed data of configuration \(configuration): it belongs in the user's store (`storekeep seed`)")
            }
            let record = try ResolvedSeedRecord(entry, of: set, in: user)
            guard ids.insert(record.id).inserted else { throw fail("a second \(entry.entity) record with the same seed key") }
            records.append(record)
        }
        for record in records {
            for (name, target) in record.toOne.sorted(by: { $0.key < $1.key }) where !ids.contains(target) {
                throw SeedSetError(path: set.path, line: record.entry.line, problem: "the target of \(name) is not a record of the seed set")
            }
        }
        let store = try SyncStore.create(at: temporary, model: user.model, contentName: user.metadata.contentName, peerID: "seed-store",
                                         seedConfiguration: configuration)
        let load = try store.beginBulkLoad(key: "seed-store", version: String(set.version), description: "seed set \(set.name) version \(set.version)",
                                           source: set.path, checksum: set.checksum, author: Self.author)
        let seed = SeedMark(set: set.name, version: set.version)
        var start = 0
        while start < records.count {
            let end = min(start + 10_000, records.count)
            let batch = records[start..<end].map { record in
                ImportRecord(entity: record.entry.entity, globalID: record.id, values: AttributeValues(record.values), toOne: record.toOne, seed: seed)
            }
            do {
                try load.importBatch(batch, checkpoint: MigrationCheckpoint(stream: "seed set", position: Int64(end), rows: end, rejected: 0))
            } catch let error as StoreError where error.reason == .invalidRequest {
                throw SeedSetError(path: set.path, line: nil, problem: error.message)
            }
            start = end
        }
        try load.finish(success: true)
        try store.recordSeedStoreFacts(identity.facts)
        return records.count
    }

    /// Copies a seed store file to `temporary` (SQLite's backup API: one consistent copy); returns
    /// how many records it holds.
    func copy(_ file: String, to temporary: String, configuration: String, user: SyncStore) throws -> Int {
        let source = try openSeedStoreFile(file, configuration: configuration, user: user)
        try source.backup(to: temporary)
        return try source.liveRecordCounts().values.reduce(0, +)
    }

    /// Makes the built file one self-contained, checked, durable file and returns its records per
    /// seed entity: rollback journal instead of WAL, compacted, SQLite's integrity check clean, the
    /// configuration's entities and nothing else, `expected` records in all (fsynced when
    /// ``DurableFile/publish(_:as:replacing:)`` puts it in place).
    func verify(_ temporary: String, expected: Int, configuration: String, user: SyncStore) throws -> [String: Int] {
        func broken(_ problem: String) -> MaintenanceError {
            MaintenanceError(path: temporary, problem: "the seed store built is not usable: \(problem)",
                             hint: "nothing was installed; check the disk and the source, then build again", failureKind: .ioFailure)
        }
        let problem: SeedStoreFileProblem?
        do {
            problem = try SyncStore.sealSeedStoreFile(at: temporary, configuration: configuration, model: user.model)
        } catch let error as StoreError {
            throw MaintenanceError(path: temporary, problem: error.message,
                                   hint: "nothing was installed; check free space and permissions, then build again", failureKind: .ioFailure)
        }
        switch problem {
        case .integrity(let lines)?: throw broken("SQLite's integrity check says: \(lines.prefix(3).joined(separator: "; "))")
        case .foreignTable(let stranger)?: throw broken("it has the table \(stranger), which holds no entity of configuration \(configuration)")
        case nil: break
        }
        let built = try SyncStore.open(at: temporary, readOnly: true)
        if let problem = SyncStore.seedStoreMismatch(built.metadata.seedConfiguration, model: built.model, for: configuration, of: user.model) { throw broken(problem) }
        let seedEntities = Set(user.model.seedEntities(of: configuration).map(\.name))
        let counts = try built.liveRecordCounts().filter { seedEntities.contains($0.key) }
        let total = counts.values.reduce(0, +)
        guard total == expected else { throw broken("it holds \(total) records, not \(expected)") }
        return counts
    }

    /// The user records whose seed references the seed store at `candidate` would leave dangling.
    func danglingReferences(ifInstalling candidate: String, configuration: String, user: SyncStore) throws -> ([DanglingSeedReference], Int) {
        guard user.model.seedReferences.contains(where: { user.model.seedConfiguration(of: $0.target) == configuration }) else { return ([], 0) }
        do {
            return try StoreInspector(path: user.path, access: .snapshot)
                .danglingSeedReferences(ifSeedStoreAt: candidate, configuration: configuration, model: user.model, limit: Self.danglingLimit)
        } catch {
            throw Self.failure(error, path: user.path, action: "find the records the new seed store would leave dangling")
        }
    }

    /// A failure of SQLite or the file system during a build, as an operator reads it.
    private static func failure(_ error: any Error, path: String, action: String) -> any Error {
        if error is StoreError || error is MaintenanceError { return error }
        return MaintenanceError(path: path, problem: "cannot \(action): \(error)",
                                hint: "nothing was installed; check free space and permissions, then build again", failureKind: .ioFailure)
    }
}
