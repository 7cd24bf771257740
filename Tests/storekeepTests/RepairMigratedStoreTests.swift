import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// `storekeep repair` on a store a migration loaded (its inserts are insert runs) where a record was
/// then saved one by one (`_insert_run` NULL): a value a crash used to read without a NULL check.
@Suite("storekeep repair: a migrated store with records saved one by one")
struct RepairMigratedStoreTests {
    @Test("a seed duplicate saved after a migration is merged; dry run, --only and the run neither crash nor leave the lock")
    func seedSavedAfterMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 20, recordingEvery: 0)
        let path = directory.url.appendingPathComponent("t.store").path
        let migrate = try StorekeepProcess.run(["migrate", source, "--to", path, "--mapping", SpeechTimerData.mapping])
        try #require(migrate.status == 0, "\(migrate)")
        let store = try SyncStore.open(at: path)
        let seeds = try store.globalIDs(of: "SpeechType").compactMap { try store.record($0) }.filter { $0.seed != nil }
        let original = try #require(seeds.first { $0.values["name"] == .string("Table Topics") })
        let copy = try store.save(author: "storekeep.seed") { tx in
            try tx.insert("SpeechType", values: original.values, seed: original.seed)
        }
        let lock = StoreLock.lockPath(for: path)

        for arguments in [["--dry-run"], ["--only", "lock.stale"], ["--dry-run", "--only", "lock.stale"]] {
            let result = try StorekeepProcess.run(["repair", path, "--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(!FileManager.default.fileExists(atPath: lock), "\(arguments) left the lock behind")
        }
        let planned = try StorekeepProcess.run(["repair", path, "--dry-run", "--json"]).jsonObject()
        let merge = ((planned["plan"] as? [String: Any])?["fixes"] as? [[String: Any]])?.first { $0["action"] as? String == "mergeDuplicates" }
        let kept = try #require(merge?["keeper"] as? String)
        #expect(Set([kept] + (merge?["removed"] as? [String] ?? [])) == [original.globalID.rawValue, copy.rawValue])

        let run = try StorekeepProcess.run(["repair", path, "--no-backup"])
        #expect(run.status == 0, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: lock))
        let after = try SyncStore.open(at: path, readOnly: true)
        let names = try after.globalIDs(of: "SpeechType").compactMap { try after.record($0)?.values["name"] }
        #expect(names.filter { $0 == .string("Table Topics") }.count == 1)
    }
}
