import Foundation
import ObjectModel
@testable import StoreMaintenance
import SyncStore

/// A seeded, reproducible random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Peers of one content name editing offline and syncing through one container, in a seeded random
/// schedule (the multi-peer simulation of `docs/container.md`).
///
/// Peer 0 is made by a migration (a bulk import), peer 4 by migrating the same source on its own
/// (the same global IDs); peers 1–3 join empty, as new devices do.
final class SyncSimulation {
    let folder: URL
    let container: String
    private(set) var paths: [String] = []
    var random: SeededGenerator
    /// Records inserted by the simulated users (and still there when their transaction committed).
    private(set) var inserted: Set<GlobalID> = []
    /// Records inserted by the edit being made.
    private var pending: Set<GlobalID> = []
    static let seedNames = ["Toast", "Keynote", "Panel"]

    /// A folder for one schedule: in `/dev/shm` when there is one (the simulation tests merging and
    /// resuming in-process, thousands of fsyncs that a memory file system makes cheap; durability is
    /// what the kill tests with real processes on a real disk test), else the temporary folder.
    static func folder(seed: UInt64) -> URL {
        var isFolder: ObjCBool = false
        let base = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder) && isFolder.boolValue
            && FileManager.default.isWritableFile(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        return base.appendingPathComponent("sk-sim-\(seed)-\(UUID().uuidString)")
    }

    init(seed: UInt64, in folder: URL, peers: Int = 5) throws {
        self.folder = folder
        random = SeededGenerator(seed: seed)
        container = folder.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        for index in 0..<peers {
            let path = folder.appendingPathComponent("peer\(index).store").path
            let store = try SyncStore.create(at: path, model: SyncSimulationModel.model(), contentName: "Sim", peerID: "P\(index)")
            if index == 0 || index == 4 { try migrate(into: store) }
            paths.append(path)
        }
    }

    /// What a migration of the same source writes: the same records with the same global IDs.
    private func migrate(into store: SyncStore) throws {
        let load = try store.beginBulkLoad(key: "source", version: "1", description: "simulated", source: "source.plist", checksum: "c", author: "storekeep.migrate")
        var records: [ImportRecord] = []
        for index in 0..<6 {
            records.append(ImportRecord(entity: "Item", globalID: GlobalID("mig-item-\(index)"),
                                        values: ["title": .string("item \(index)"), "priority": .integer(Int64(index))]))
        }
        records.append(ImportRecord(entity: "Tag", globalID: GlobalID("mig-tag-0"), values: ["name": .string("imported")],
                                    toMany: ["items": [GlobalID("mig-item-0"), GlobalID("mig-item-1")]]))
        records.append(ImportRecord(entity: "Playlist", globalID: GlobalID("mig-list"), values: ["name": .string("migrated")]))
        for index in 0..<3 {
            records.append(ImportRecord(entity: "Entry", globalID: GlobalID("mig-entry-\(index)"), values: ["label": .string("e\(index)")],
                                        toOne: ["playlist": GlobalID("mig-list")], toOneOrder: ["playlist": Int64(index)]))
        }
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: Int64(records.count), rows: records.count, rejected: 0))
        try load.finish(success: true)
        inserted.formUnion(records.map(\.globalID))
    }

    /// A few random edits on peer `index`, saved as one transaction by the simulated app.
    func edit(peer index: Int, operations: Int) throws {
        let store = try SyncStore.open(at: paths[index])
        pending = []
        try store.save(author: "app") { tx in
            for _ in 0..<operations { try randomOperation(tx, store: store) }
        }
        // A record inserted and deleted in one save leaves no trace in the history: only count those that stayed.
        for id in pending where try store.record(id) != nil { inserted.insert(id) }
    }

    private func pick(_ entity: String, _ store: SyncStore, _ tx: StoreTransaction) throws -> GlobalID? {
        let ids = try tx.records(of: entity, matching: [:])
        return ids.isEmpty ? nil : ids[Int.random(in: 0..<ids.count, using: &random)]
    }

    private func randomOperation(_ tx: StoreTransaction, store: SyncStore) throws {
        switch Int.random(in: 0..<14, using: &random) {
        case 0, 1:
            let id = try tx.insert("Item", values: ["title": .string("t\(Int.random(in: 0..<1000, using: &random))"),
                                                    "priority": .integer(Int64.random(in: 0...10, using: &random))])
            pending.insert(id)
            if let category = try pick("Category", store, tx) { try tx.setToOne("category", of: id, to: category) }
        case 2, 3:
            guard let item = try pick("Item", store, tx) else { return }
            // Sometimes an invalid value: the delete policy removes the item on every peer.
            let priority = Int64.random(in: 0...12, using: &random)
            try tx.update(item, values: ["title": .string("edited \(Int.random(in: 0..<100, using: &random))"), "priority": .integer(priority)])
        case 4:
            guard let item = try pick("Item", store, tx) else { return }
            try tx.delete(item)
        case 5:
            guard let item = try pick("Item", store, tx) else { return }
            let tags = try tx.records(of: "Tag", matching: [:]).filter { _ in Bool.random(using: &random) }
            try tx.setToMany("tags", of: item, to: tags)
        case 6:
            let id = try tx.insert("Tag", values: ["name": .string("tag\(Int.random(in: 0..<5, using: &random))")])
            pending.insert(id)
        case 7:
            // Seeding: the same derived ID on every peer (converges by itself), or a random one as old apps did.
            let name = Self.seedNames[Int.random(in: 0..<Self.seedNames.count, using: &random)]
            let derived = Bool.random(using: &random)
            let id = derived ? GlobalID("seed-Category-\(name)") : GlobalID.random()
            guard try tx.entity(of: id) == nil else { return }
            try tx.insert("Category", id: id, values: ["name": .string(name)], seed: SeedMark(set: "builtin", version: Int.random(in: 1...2, using: &random)))
            pending.insert(id)
        case 8:
            guard let category = try pick("Category", store, tx) else { return }
            try tx.update(category, values: ["color": .string(["red", "blue"][Int.random(in: 0..<2, using: &random)])])
        case 9:
            if try tx.records(of: "Preferences", matching: [:]).isEmpty {
                let id = try tx.insert("Preferences", values: ["theme": .string("dark")])
                pending.insert(id)
            } else if let preferences = try pick("Preferences", store, tx) {
                let favorites = try tx.records(of: "Item", matching: [:]).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                try tx.setToMany("favorites", of: preferences, to: favorites)
            }
        case 10:
            let person = try pick("Person", store, tx) ?? tx.insert("Person", values: ["name": .string("p")])
            pending.insert(person)
            let badge = try pick("Badge", store, tx) ?? tx.insert("Badge", values: ["number": .integer(Int64.random(in: 1...99, using: &random))])
            pending.insert(badge)
            try tx.setToOne("badge", of: person, to: badge)
        case 11:
            let list = try pick("Playlist", store, tx) ?? tx.insert("Playlist", values: ["name": .string("list")])
            pending.insert(list)
            let entry = try tx.insert("Entry", values: ["label": .string("e\(Int.random(in: 0..<50, using: &random))")])
            pending.insert(entry)
            try tx.setToOne("playlist", of: entry, to: list)
        case 12:
            guard let list = try pick("Playlist", store, tx) else { return }
            if Int.random(in: 0..<4, using: &random) == 0 {
                try tx.delete(list)
            } else {
                try tx.setToMany("entries", of: list, to: try tx.related("entries", of: list).shuffled(using: &random))
            }
        default:
            let size = Bool.random(using: &random) ? 5_000 : 100
            let id = try tx.insert("Attachment", values: ["data": .binary(Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }))])
            pending.insert(id)
        }
    }

    /// Syncs peer `index` in-process.
    @discardableResult
    func sync(peer index: Int) throws -> SyncReport {
        try StoreSynchronizer(path: paths[index], container: container, options: SyncOptions(changesPerLog: 7, changesPerImportBatch: 11)).run()
    }

    /// How many runs were stopped at a crash point.
    private(set) var kills = 0

    /// Runs `body` stopped at its `point`-th crash point (``CrashPoint/Budget``), as a kill stops a
    /// process there: what was committed or published stays, nothing else. Returns whether it was
    /// stopped (a run with fewer points finishes).
    @discardableResult
    func killed(at point: Int, _ body: () throws -> Void) throws -> Bool {
        do {
            try CrashPoint.$budget.withValue(CrashPoint.Budget(stoppingAt: point)) { try body() }
            return false
        } catch is CrashPoint.Simulated {
            kills += 1
            return true
        }
    }

    /// A sync of peer `index` killed at a random crash point.
    func killedSync(peer index: Int) throws {
        let point = Int.random(in: 1...24, using: &random)
        try killed(at: point) { try sync(peer: index) }
    }

    /// How many rekeys the schedule made (each moves to `Sim<n>`).
    private(set) var rekeys = 0

    /// Rekeys peer `index`'s content name to a new one; with `killing`, the rekey is first stopped
    /// at a random crash point, then run again as an operator would.
    func rekey(peer index: Int, killing: Bool = false) throws {
        // As an operator does: sync first, which follows an earlier rekey.
        try sync(peer: index)
        rekeys += 1
        let rekeyer = StoreRekeyer(path: paths[index], container: container, to: "Sim\(rekeys)")
        if killing { try killed(at: Int.random(in: 1...24, using: &random)) { _ = try rekeyer.run() } }
        _ = try rekeyer.run()
    }

    /// Archives, from peer `index`, what every peer has imported; with `killing`, the archive is
    /// first stopped at a random crash point, then run again.
    @discardableResult
    func archive(peer index: Int, killing: Bool = false) throws -> ArchiveReport {
        let archiver = StoreArchiver(path: paths[index], container: container)
        if killing { try killed(at: Int.random(in: 1...30, using: &random)) { _ = try archiver.run() } }
        return try archiver.run()
    }

    /// Syncs every peer, round after round, until a whole round moves nothing; returns the rounds.
    func syncUntilQuiet(maxRounds: Int = 12) throws -> Int {
        for round in 1...maxRounds {
            var moved = false
            for index in paths.indices {
                let report = try sync(peer: index)
                if report.exportedTransactions > 0 || !report.importedTransactions.isEmpty || report.followedRedirectFrom != nil
                    || !report.baselinesApplied.isEmpty { moved = true }
            }
            if !moved { return round }
        }
        return maxRounds + 1
    }

    /// Per peer, the entities whose digests differ from peer 0's.
    func differingEntities() throws -> [String] {
        let digests = try paths.map { try SyncStore.open(at: $0, readOnly: true).contentDigest() }
        return digests.enumerated().flatMap { index, digest in
            digest.entities.keys.sorted().compactMap { name in
                digest.entities[name] == digests[0].entities[name] ? nil : "peer \(index): \(name) \(digest.entities[name]?.records ?? -1) vs \(digests[0].entities[name]?.records ?? -1)"
            }
        }
    }

    /// The content digest of each peer.
    func digests() throws -> [String] {
        try paths.map { try SyncStore.open(at: $0, readOnly: true).contentDigest().digest }
    }
}
