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
/// matches a seed key is adopted instead of duplicated: it gets the set's seed mark (and, untouched
/// by the user, this version's values), so that the de-duplication of sync and `repair` merges it
/// with the derived record other peers seed.
public struct StoreSeeder: Sendable {
    /// The history author of a seeding.
    public static let author = "storekeep.seed"

    /// A testing hook, called with the store's path once the seed set is checked and before the
    /// transaction that reads the store and writes the seed records begins: a test makes the app's
    /// concurrent edit there.
    @TaskLocal static var prepared: (@Sendable (String) throws -> Void)?

    public let path: String
    public let seedSet: SeedSet
    /// The account to seed for; the store's own when `nil`.
    public let account: String?
    public let dryRun: Bool
    /// Seconds to wait for the store's lock while another process holds it.
    public let lockTimeout: Double

    /// Creates a seeder.
    public init(path: String, seedSet: SeedSet, account: String? = nil, dryRun: Bool = false, lockTimeout: Double = 30) {
        self.path = path
        self.seedSet = seedSet
        self.account = account
        self.dryRun = dryRun
        self.lockTimeout = lockTimeout
    }

    /// Seeds (or says what it would do).
    ///
    /// A dry run opens the store read-only: it takes no lock and never writes the file (not even to
    /// upgrade an older format).
    ///
    /// - Throws: ``SeedSetError`` for a record the model cannot take (the file and line are named;
    ///   nothing is saved), ``MaintenanceError`` for an account that is not the store's, `StoreError`.
    public func run() throws -> SeedReport {
        let lock = dryRun ? nil : try StoreLock.acquire(for: path, command: "storekeep seed", waitingUpTo: lockTimeout)
        defer { lock?.release() }
        let store = try SyncStore.open(at: path, readOnly: dryRun)
        if let account, let own = store.metadata.accountToken, own != account {
            throw MaintenanceError(path: path, problem: "belongs to account \(own), not \(account)",
                                   hint: "switch the store's account first (`storekeep account STORE --set \(account)` with --keep-local or --reset)",
                                   failureKind: .badInput)
        }
        let accountName = account ?? store.metadata.accountToken ?? ""
        var report = SeedReport(store: path, seedSet: seedSet.name, version: seedSet.version, account: accountName, dryRun: dryRun)
        let planned = try plan(store: store)
        // What the store holds of each seed record, and which of those the user has modified, is
        // read inside the transaction that writes: an edit committed by the app while this run
        // prepared is seen, and a user's record is never overwritten from a stale reading.
        if dryRun {
            try store.inspect { tx in
                guard try !alreadySeeded(tx, account: accountName, report: &report) else { return }
                let (found, edited) = try lookUp(planned, tx: tx)
                for record in found { try apply(record, edited: edited, tx: tx, perform: false, report: &report) }
            }
            return report
        }
        try Self.prepared?(path)
        do {
            try store.save(author: Self.author) { tx in
                if try alreadySeeded(tx, account: accountName, report: &report) { throw SeedingStop() }
                let (found, edited) = try lookUp(planned, tx: tx)
                for record in found { try apply(record, edited: edited, tx: tx, perform: true, report: &report) }
                try tx.recordSeedMark(set: seedSet.name, version: seedSet.version, account: accountName)
            }
        } catch is SeedingStop {
            return report
        }
        if !report.inserted.isEmpty || !report.refreshed.isEmpty || !report.adopted.isEmpty {
            report.sequence = try store.syncStatus().localSequence
        }
        return report
    }

    /// Whether this version (or a newer one) of the set was already seeded for the account.
    private func alreadySeeded(_ tx: StoreTransaction, account: String, report: inout SeedReport) throws -> Bool {
        guard let mark = try tx.seedMark(set: seedSet.name, account: account) else { return false }
        report.previousVersion = mark.version
        report.alreadySeeded = mark.version >= seedSet.version
        return report.alreadySeeded
    }

    /// One seed record, checked against the model, with what the store holds of it.
    private struct PlannedRecord {
        let entry: SeedSet.Entry
        let values: [String: AttributeValue]
        let key: [String: AttributeValue]
        let id: GlobalID
        /// Whether the record with the derived ID is there.
        var derivedExists = false
        /// Live records of the entity's family with the same seed key under other IDs (an older
        /// app's seeds with random IDs, or duplicates that sync brought in).
        var matches: [GlobalID] = []
        /// The seed mark of each live record found.
        var seeds: [GlobalID: SeedMark] = [:]

        /// Every live record found: the derived one first, then the matches.
        var live: [GlobalID] { (derivedExists ? [id] : []) + matches }
    }

    /// The seed set's records checked against the store's model, with their derived global IDs
    /// (nothing is read from the store's records: ``lookUp(_:tx:)`` does that in the save).
    private func plan(store: SyncStore) throws -> [PlannedRecord] {
        let model = store.model
        var planned: [PlannedRecord] = []
        var seen = Set<GlobalID>()
        for entry in seedSet.records {
            func fail(_ problem: String) -> SeedSetError { SeedSetError(path: seedSet.path, line: entry.line, problem: problem) }
            if let configuration = model.seedConfiguration(of: entry.entity) {
                throw fail("entity \(entry.entity) is read-only seed data of configuration \(configuration), kept in a seed store of its own: build it with `storekeep seed-store build` (docs/seeding.md#seed-stores)")
            }
            if !entry.toOne.isEmpty {
                throw fail("toOne is for seed stores (`storekeep seed-store build`); seed a user's store's relationships with `storekeep apply`")
            }
            let resolved = try ResolvedSeedRecord(entry, of: seedSet, in: store)
            guard seen.insert(resolved.id).inserted else { throw fail("a second \(entry.entity) record with the same seed key") }
            planned.append(PlannedRecord(entry: entry, values: resolved.values, key: resolved.key, id: resolved.id))
        }
        return planned
    }

    /// What `tx` holds of each planned record (the derived record, other records with its seed key,
    /// their seed marks), and which of those records the user has modified.
    private func lookUp(_ planned: [PlannedRecord], tx: StoreTransaction) throws -> ([PlannedRecord], Set<String>) {
        let found = try planned.map { record in
            var record = record
            record.derivedExists = try tx.entity(of: record.id) != nil
            // The seed key's values under other IDs (records of the entity and its sub-entities).
            record.matches = try tx.records(of: record.entry.entity, matching: record.key).filter { $0 != record.id }
            for id in record.live { record.seeds[id] = try tx.seedMark(of: id) }
            return record
        }
        let edited = Set(try tx.userModifiedRecords(among: found.flatMap(\.live)).map(\.rawValue))
        return (found, edited)
    }

    /// Decides what one seed record needs, writes it when `perform`, and reports it.
    ///
    /// The live records that carry the seed key (the derived ID, and any under other IDs) are the
    /// seed record: each is brought to this version unless the user edited it. A record found
    /// under another ID is *adopted*: it gets this set's seed mark, so that de-duplication (sync's
    /// fixes, `repair`) merges it with the derived record other peers seed; untouched, it is also
    /// refreshed to this version's values. Only when no live record carries the key does a
    /// tombstone matter (the user deleted it: it stays deleted); otherwise the record is inserted.
    private func apply(_ record: PlannedRecord, edited: Set<String>, tx: StoreTransaction, perform: Bool, report: inout SeedReport) throws {
        let seed = SeedMark(set: seedSet.name, version: seedSet.version)
        do {
            let live = record.live
            if live.isEmpty {
                if try tx.isDeleted(record.id) || tx.wasDeleted(record.entry.entity, withKey: record.key) {
                    report.skippedDeleted.append(record.id.rawValue)
                } else {
                    if perform { try tx.insert(record.entry.entity, id: record.id, values: record.values, seed: seed) }
                    report.inserted.append(record.id.rawValue)
                }
                return
            }
            if live.count > 1 { report.duplicates.append(live.map(\.rawValue)) }
            for id in live {
                let current = record.seeds[id]
                let upToDate = current?.set == seed.set && (current?.version ?? 0) >= seed.version
                let userEdited = edited.contains(id.rawValue)
                if upToDate {
                    // Already this version (seeded or adopted on another peer and synced, or migrated).
                    report.present.append(id.rawValue)
                } else if id == record.id {
                    if userEdited {
                        report.keptEdited.append(id.rawValue)
                    } else {
                        if perform { try tx.refreshSeed(id, values: record.values, seed: seed) }
                        report.refreshed.append(id.rawValue)
                    }
                } else {
                    // An edited record keeps its values: it only gets the mark.
                    if perform { try tx.refreshSeed(id, values: userEdited ? [:] : record.values, seed: seed) }
                    report.adopted.append(id.rawValue)
                    if userEdited { report.keptEdited.append(id.rawValue) }
                }
            }
        } catch let error as StoreError {
            throw SeedSetError(path: seedSet.path, line: record.entry.line, problem: error.message)
        }
    }
}

/// Ends a seeding's save without committing (nothing to do).
private struct SeedingStop: Error {}
