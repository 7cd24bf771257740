import Foundation
import ObjectModel
import SyncStore

/// `storekeep seed-store build`: builds the seed store of a seed configuration beside a user's store,
/// from a seed set, a shipped seed store file or the app's Core Data store of the configuration,
/// and puts it in place atomically (article 4).
///
/// The new seed store is built complete under a temporary name in the store's folder, checked
/// (SQLite's integrity check, its records, its configuration and entities), written back to one
/// self-contained file (rollback journal, not WAL: readers open it read-only and create nothing
/// beside it) and fsynced, then renamed over the old one and the folder fsynced: a reader sees the
/// old seed store or the new one, never a mix, and a handle open before the rename keeps reading
/// the old one. Before it is put in place, the user records it would leave dangling (seed
/// references to records it lacks) are found and reported; the build goes on (`check` reports
/// them until they are fixed), unless it is a dry run, which writes nothing.
///
/// ```swift
/// let report = try SeedStoreBuilder(path: "ratings.store", source: .seedSet(try SeedSet(path: "postcodes.seed.yaml"))).run()
/// report.seedStore        // "ratings.store.seed-Postcodes"
/// report.danglingReferences
/// ```
public struct SeedStoreBuilder: Sendable {
    /// What a seed store is built from.
    public enum Source: Sendable {
        /// A seed set naming the configuration's records.
        case seedSet(SeedSet)
        /// A seed store file built elsewhere (shipped with the app, downloaded), copied in; or the
        /// app's Core Data store of the configuration, whose records get global IDs derived from
        /// their seed keys.
        case sqlite(String)
    }

    /// The user's store.
    public let path: String
    /// The seed configuration; the model's only one when `nil`.
    public let configuration: String?
    public let source: Source
    public let dryRun: Bool
    /// Seconds to wait for the seed store's lock while another build holds it.
    public let lockTimeout: Double

    /// The most dangling references a report lists.
    static let danglingLimit = 1_000

    /// Creates a builder.
    public init(path: String, configuration: String? = nil, source: Source, dryRun: Bool = false, lockTimeout: Double = 30) {
        self.path = path
        self.configuration = configuration
        self.source = source
        self.dryRun = dryRun
        self.lockTimeout = lockTimeout
    }

    /// Builds and installs the seed store (or says what it would do).
    ///
    /// - Throws: ``MaintenanceError`` (a store of a model without that seed configuration, a source
    ///   that is not that configuration's seed data), ``SeedSetError`` naming the seed set's line,
    ///   `StoreError`. Nothing is left half-made: the old seed store stays in place.
    public func run() throws -> SeedStoreReport {
        let user = try SyncStore.open(at: path, readOnly: true)
        guard !user.isSeedStore else {
            throw MaintenanceError(path: path, problem: "is a seed store itself", hint: "give the user's store the seed store is built beside", failureKind: .badInput)
        }
        let configuration = try chosenConfiguration(of: user.model)
        let target = user.seedStorePath(for: configuration)
        let lock = dryRun ? nil : try StoreLock.acquire(for: target, command: "storekeep seed-store build", waitingUpTo: lockTimeout)
        defer { lock?.release() }
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        let targetName = URL(fileURLWithPath: target).lastPathComponent
        removeLeftoversOfKilledBuilds(in: folder, name: targetName)

        let identity = try sourceIdentity(configuration: configuration, user: user)
        var report = SeedStoreReport(store: path, seedStore: target, configuration: configuration, source: identity.kind, sourcePath: identity.path,
                                     seedSet: identity.seedSet, version: identity.version, dryRun: dryRun)
        if FileManager.default.fileExists(atPath: target) {
            let installed = try? SyncStore.open(at: target, readOnly: true).seedStoreFacts()
            report.previousSeedSet = installed?["seedSet"]
            report.previousVersion = installed?["seedVersion"].flatMap { Int($0) }
            if installed?["seedChecksum"] == identity.checksum, report.previousVersion == identity.version,
               (try? SyncStore.open(at: target, readOnly: true)).flatMap({ SyncStore.seedStoreMismatch($0.metadata.seedConfiguration, model: $0.model, for: configuration, of: user.model) }) == nil {
                report.nothingToDo = true
                return report
            }
        }

        let temporary = "\(folder)/.\(targetName).building-\(getpid())"
        removeFiles(temporary)
        defer { if dryRun || !report.installed { removeFiles(temporary) } }
        let expected: Int
        switch source {
        case .seedSet(let set): expected = try build(temporary, from: set, configuration: configuration, user: user, identity: identity)
        case .sqlite(let file) where identity.kind == Self.coreDataSource:
            expected = try buildFromCoreData(file, to: temporary, configuration: configuration, user: user, identity: identity)
        case .sqlite(let file): expected = try copy(file, to: temporary, configuration: configuration, user: user)
        }
        report.records = try verify(temporary, expected: expected, configuration: configuration, user: user)
        try CrashPoint.reach("seedStore.built")
        let (dangling, count) = try danglingReferences(ifInstalling: temporary, configuration: configuration, user: user)
        report.danglingReferences = dangling
        report.danglingReferenceCount = count
        guard !dryRun else { return report }

        // The seed store replaced stays as `.previous` (one version back), to go back to with
        // --from-sqlite: a hard link made before the rename, so the seed store never goes missing.
        let previous = target + ".previous"
        if FileManager.default.fileExists(atPath: target) {
            unlink(previous)
            if link(target, previous) == 0 { report.previous = previous }
        }
        do {
            try DurableFile.publish(temporary, as: target)
        } catch let failure as DurableFile.Failure {
            throw MaintenanceError(path: target, problem: "cannot put the new seed store in place: \(failure.reason)",
                                   hint: "the old seed store is unchanged; check the folder's permissions and free space", failureKind: .ioFailure)
        }
        report.installed = true
        try CrashPoint.reach("seedStore.installed")
        return report
    }

    /// The configuration asked for, or the model's only seed configuration.
    private func chosenConfiguration(of model: ManagedModel) throws -> String {
        let names = model.seedConfigurations.map(\.name)
        if let configuration {
            guard names.contains(configuration) else {
                throw MaintenanceError(path: path, problem: "model \(model.versionName) has no seed configuration named '\(configuration)'\(names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))")",
                                       hint: "mark the configuration as seed data (docs/models.md, \"Seed configurations\")", failureKind: .badInput)
            }
            return configuration
        }
        guard let only = names.first else {
            throw MaintenanceError(path: path, problem: "model \(model.versionName) has no seed configuration: its data all lives in the user's store",
                                   hint: "mark a configuration as read-only seed data (docs/models.md, \"Seed configurations\"), or seed the store with `storekeep seed`",
                                   failureKind: .badInput)
        }
        guard names.count == 1 else {
            throw MaintenanceError(path: path, problem: "model \(model.versionName) has several seed configurations (\(names.joined(separator: ", ")))",
                                   hint: "name one with --configuration", failureKind: .usage)
        }
        return only
    }

    /// The file a crash point or a failure may leave: the seed store being built and what SQLite
    /// and `SyncStore.create` make beside it.
    private func removeFiles(_ temporary: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }

    /// Removes `.NAME.building-<pid>` (and `..NAME.building-<pid>.creating-<pid>`, SyncStore's own
    /// temporary name) left beside the seed store by builds whose process no longer runs.
    private func removeLeftoversOfKilledBuilds(in folder: String, name: String) {
        DeadProcessLeftovers.remove(in: folder, prefixes: [".\(name).building-", "..\(name).building-"])
    }
}
