import Foundation
import ObjectModel
import SyncStore

/// `storekeep seed`: seeds a store from a seed set once per peer per account (article 1).
///
/// Each seed record's global ID is derived from its entity (the root of its family) and the values
/// of its seed key (``SyncStore/seedGlobalID(entity:values:)``, as a migration's `id: seedKey`), so
/// two peers seeding offline, and a peer that migrated the same built-in records, hold the same
/// record and sync merges it. A seed mark (set, version, account) records the seeding: run again, `seed` does
/// nothing and says so. A newer version of the set inserts its new records and refreshes the ones
/// nobody touched; it never changes a record the user modified and never brings back one the user
/// deleted (a delete's tombstone keeps its key). A record an older app seeded with a random ID that
/// matches a seed key is adopted instead of duplicated (repair's de-duplication merges duplicates
/// that remain).
public struct StoreSeeder: Sendable {
    /// The history author of a seeding.
    public static let author = "storekeep.seed"

    public let path: String
    public let seedSet: SeedSet
    /// The account to seed for; the store's own when `nil`.
    public let account: String?
    public let dryRun: Bool

    /// Creates a seeder.
    public init(path: String, seedSet: SeedSet, account: String? = nil, dryRun: Bool = false) {
        self.path = path
        self.seedSet = seedSet
        self.account = account
        self.dryRun = dryRun
    }

    /// Seeds (or says what it would do).
    ///
    /// - Throws: ``SeedSetError`` for a record the model cannot take (the file and line are named;
    ///   nothing is saved), ``MaintenanceError`` for an account that is not the store's, `StoreError`.
    public func run() throws -> SeedReport {
        let lock = dryRun ? nil : try StoreLock.acquire(for: path, command: "storekeep seed", waitingUpTo: 30)
        defer { lock?.release() }
        let store = try SyncStore.open(at: path)
        if let account, let own = store.metadata.accountToken, own != account {
            throw MaintenanceError(path: path, problem: "belongs to account \(own), not \(account)",
                                   hint: "switch the store's account first (`storekeep account STORE --set \(account)` with --keep-local or --reset)",
                                   failureKind: .badInput)
        }
        let accountName = account ?? store.metadata.accountToken ?? ""
        var report = SeedReport(store: path, seedSet: seedSet.name, version: seedSet.version, account: accountName, dryRun: dryRun)
        let planned = try plan(store: store)
        // Which of the records found the user has modified (history, read before the save).
        let edited = Set(try store.userModifiedRecords(among: planned.compactMap(\.existing)).map(\.rawValue))
        do {
            try store.save(author: Self.author) { tx in
                if let mark = try tx.seedMark(set: seedSet.name, account: accountName) {
                    report.previousVersion = mark.version
                    if mark.version >= seedSet.version {
                        report.alreadySeeded = true
                        throw SeedingStop()
                    }
                }
                for record in planned { try apply(record, edited: edited, tx: tx, report: &report) }
                try tx.recordSeedMark(set: seedSet.name, version: seedSet.version, account: accountName)
                if dryRun { throw SeedingStop() }
            }
        } catch is SeedingStop {
            return report
        }
        if !report.inserted.isEmpty || !report.refreshed.isEmpty { report.sequence = try store.syncStatus().localSequence }
        return report
    }

    /// One seed record, checked against the model, with what the store holds of it.
    private struct PlannedRecord {
        let entry: SeedSet.Entry
        let values: [String: AttributeValue]
        let key: [String: AttributeValue]
        let id: GlobalID
        /// The record found: the derived ID, or a record matching the key.
        var existing: GlobalID?
        var adopted: Bool
        /// The existing record's seed mark.
        var existingSeed: SeedMark?
    }

    private func plan(store: SyncStore) throws -> [PlannedRecord] {
        let model = store.model
        var planned: [PlannedRecord] = []
        var seen = Set<GlobalID>()
        for entry in seedSet.records {
            func fail(_ problem: String) -> SeedSetError { SeedSetError(path: seedSet.path, line: entry.line, problem: problem) }
            guard let entity = model.entity(named: entry.entity), !entity.isAbstract else {
                throw fail("entity '\(entry.entity)' is not a concrete entity of model \(model.versionName)")
            }
            let keyNames = model.facts(of: entry.entity).seedKey
            guard !keyNames.isEmpty else {
                throw fail("entity \(entry.entity) has no storekeep.seedKey in the model: seed records are identified by it (docs/models.md)")
            }
            var values: [String: AttributeValue] = [:]
            for (name, json) in entry.values {
                guard let attribute = model.attribute(name, of: entry.entity), !attribute.isTransient else {
                    throw fail("entity \(entry.entity) has no stored attribute named '\(name)'")
                }
                switch ScriptValue.convert(json, to: attribute.type) {
                case .success(let value): values[name] = value
                case .failure(let mismatch): throw fail("\(entry.entity).\(name): \(mismatch.reason)")
                }
            }
            var key: [String: AttributeValue] = [:]
            for name in keyNames {
                guard let value = values[name], !value.isNull else { throw fail("the seed key \(name) of \(entry.entity) has no value") }
                key[name] = value
            }
            let id = store.seedGlobalID(entity: entry.entity, values: AttributeValues(key))
            guard seen.insert(id).inserted else { throw fail("a second \(entry.entity) record with the same seed key") }
            planned.append(PlannedRecord(entry: entry, values: values, key: key, id: id, existing: nil, adopted: false, existingSeed: nil))
        }
        let found = try store.save(author: Self.author) { tx in
            planned.map { record in
                var record = record
                if (try? tx.entity(of: record.id)) != nil {
                    record.existing = record.id
                } else if let match = (try? tx.records(of: record.entry.entity, matching: record.key))?.first {
                    record.existing = match
                    record.adopted = true
                }
                return record
            }
        }
        return try found.map { record in
            var record = record
            record.existingSeed = try record.existing.flatMap { try store.record($0)?.seed }
            return record
        }
    }

    private func apply(_ record: PlannedRecord, edited: Set<String>, tx: StoreTransaction, report: inout SeedReport) throws {
        let seed = SeedMark(set: seedSet.name, version: seedSet.version)
        do {
            if try tx.isDeleted(record.id) || tx.wasDeleted(record.entry.entity, withKey: record.key) {
                report.skippedDeleted.append(record.id.rawValue)
                return
            }
            guard let existing = record.existing else {
                try tx.insert(record.entry.entity, id: record.id, values: record.values, seed: seed)
                report.inserted.append(record.id.rawValue)
                return
            }
            if edited.contains(existing.rawValue) {
                report.keptEdited.append(existing.rawValue)
            } else if record.adopted {
                report.adopted.append(existing.rawValue)
            } else if let current = record.existingSeed, current.set == seed.set, current.version >= seed.version {
                // Already this version (seeded on another peer and synced, or migrated): nothing to refresh.
                report.present.append(existing.rawValue)
            } else {
                try tx.refreshSeed(existing, values: record.values, seed: seed)
                report.refreshed.append(existing.rawValue)
            }
        } catch let error as StoreError {
            throw SeedSetError(path: seedSet.path, line: record.entry.line, problem: error.message)
        }
    }
}

/// Ends a seeding's save without committing (nothing to do, or a dry run).
private struct SeedingStop: Error {}
