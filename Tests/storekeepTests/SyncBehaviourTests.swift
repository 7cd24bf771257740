import Foundation
import GRDB
import ObjectModel
import Testing

/// Behaviours of `sync`, `rekey`, `archive` and `apply` through the real binary: dry runs write
/// nothing, a peer on an older model version is told to migrate first, `apply`'s operations, a
/// format-3 store upgraded by its first sync, a peer that comes back after the new namespace of
/// a rekey was archived.
@Suite("sync behaviours")
struct SyncBehaviourTests {
    /// Every file under `folder` (relative path) with the SHA-256 of its bytes. SQLite's
    /// shared-memory index (`-shm`) and an empty write-ahead log (`-wal`), which a read-only open of
    /// a store in WAL mode makes, hold no data and are left out.
    private func snapshot(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where !path.hasSuffix("-shm") {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try Data(contentsOf: url)
            if path.hasSuffix("-wal"), bytes.isEmpty { continue }
            result[path] = SHA256.hexDigest(of: bytes)
        }
        return result
    }

    private func speechCount(_ store: String) throws -> Int? {
        let entities = try StorekeepProcess.run(["digest", store, "--json"]).jsonObject()["entities"] as? [String: Any]
        return (entities?["Speech"] as? [String: Any])?["records"] as? Int
    }

    @Test("--dry-run of sync, rekey and archive says what it would do and writes nothing")
    func dryRunsWriteNothing() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.type("T2", "Panel")]).status == 0)
        _ = try peers.syncUntilQuiet()
        #expect(try peers.apply("A", [SpeechLines.speech("S1", title: "unexported", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "not imported yet", type: "T2")]).status == 0)
        #expect(try peers.sync("B").status == 0)
        // Checkpoint the stores' write-ahead logs, so that a read-only open finds nothing to recover.
        for name in peers.names {
            _ = try DatabaseQueue(path: peers.store(name)).writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        let before = try snapshot(peers.directory.url)

        let sync = try peers.sync("A", ["--dry-run", "--json"])
        #expect(sync.status == 0, "\(sync)")
        let syncReport = try sync.jsonObject()
        #expect(syncReport["dryRun"] as? Bool == true)
        #expect(syncReport["exportedTransactions"] as? Int == 1)
        #expect((syncReport["importedTransactions"] as? [String: Int])?["B"] == 1)

        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2", "--dry-run", "--json"])
        #expect(rekey.status == 0, "\(rekey)")
        #expect(try rekey.jsonObject()["baselineRecords"] as? Int ?? 0 >= 2)

        let archive = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--dry-run", "--json"])
        #expect(archive.status == 0, "\(archive)")
        #expect(try archive.jsonObject()["archivedLogs"] as? Int == 2, "\(archive.stdout)")

        let after = try snapshot(peers.directory.url)
        #expect(after == before, "files changed: \(Set(after.keys).symmetricDifference(before.keys)) \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }

    @Test("a peer on an older model version is told to migrate first; migrated, it follows the rekey and converges")
    func olderModelPeerMigratesFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = directory.url.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        func path(_ name: String) -> String { directory.url.appendingPathComponent("\(name).store").path }
        func apply(_ name: String, _ lines: [String]) throws {
            let file = try directory.write(lines.joined(separator: "\n") + "\n", to: "\(name)-\(UUID().uuidString).jsonl")
            let result = try StorekeepProcess.run(["apply", path(name), file])
            #expect(result.status == 0, "\(result)")
        }
        func sync(_ name: String) throws -> ProcessResult { try StorekeepProcess.run(["sync", path(name), "--container", container, "--json"]) }
        // A: made by migrating a version-1 store to version 2. B: still on version 1.
        for name in ["A1", "B"] {
            #expect(try StorekeepProcess.run(["init", path(name), "--model", ModelFiles.speechTimer, "--model-version", "SpeechTimer 1",
                                              "--content-name", "SpeechTimer", "--peer-id", name]).status == 0)
        }
        try apply("A1", [SpeechLines.type("T1", "Toast")])
        let migrated = try StorekeepProcess.run(["migrate", path("A1"), "--to", path("A"), "--model", ModelFiles.speechTimer,
                                                 "--content-name", "SpeechTimer", "--peer-id", "A"])
        #expect(migrated.status == 0, "\(migrated)")
        try apply("B", [SpeechLines.type("T2", "Panel")])
        #expect(try sync("A").status == 0)
        // B is told the other peers are on the newer version.
        let older = try sync("B")
        #expect(older.status == 0, "\(older)")
        let otherModel = (try older.jsonObject()["findings"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "peer.otherModel" }
        #expect((otherModel?["message"] as? String)?.contains("peers A ") == true, "\(older.stdout)")
        #expect((otherModel?["hint"] as? String)?.contains("is the newer version") == true, "\(String(describing: otherModel))")
        // A is told B is on the older one.
        let newer = try sync("A")
        let aFinding = (try newer.jsonObject()["findings"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "peer.otherModel" }
        #expect((aFinding?["hint"] as? String)?.contains("is an older version") == true, "\(String(describing: aFinding))")

        // A rekeys: B, on version 1, cannot follow; it is told to migrate first.
        #expect(try StorekeepProcess.run(["rekey", path("A"), "--container", container, "--to", "SpeechTimer-2"]).status == 0)
        let moved = try sync("B")
        #expect(moved.status == 65, "\(moved)")
        let finding = (try moved.jsonObject()["findings"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "content.moved" }
        #expect((finding?["hint"] as? String)?.contains("migrate") == true, "\(moved.stdout)")
        #expect(try StorekeepProcess.run(["info", path("B"), "--json"]).jsonObject()["contentName"] as? String == "SpeechTimer", "B stays")

        let b2 = try StorekeepProcess.run(["migrate", path("B"), "--to", path("B2"), "--model", ModelFiles.speechTimer,
                                           "--content-name", "SpeechTimer", "--peer-id", "B2"])
        #expect(b2.status == 0, "\(b2)")
        for _ in 0..<3 {
            #expect(try sync("B2").status == 0)
            #expect(try sync("A").status == 0)
        }
        let digests = try ["A", "B2"].map { try StorekeepProcess.run(["digest", path($0), "--json"]).jsonObject()["digest"] as? String }
        #expect(digests[0] == digests[1], "\(digests)")
        let types = try StorekeepProcess.run(["digest", path("A"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((types?["SpeechType"] as? [String: Any])?["records"] as? Int == 2, "B's type arrived through its migrated store")
    }

    @Test("apply: add, remove, binary values, --dry-run, --json, and a missing change file")
    func applyOperations() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one"), SpeechLines.speech("S2", title: "two")]).status == 0)
        let recording = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let lines = [
            #"{"op":"add","record":{"entity":"SpeechType","key":{"name":"Toast"}},"relationship":"speeches","members":["S1","S2"]}"#,
            #"{"op":"remove","record":"T1","relationship":"speeches","members":["S2"]}"#,
            #"{"op":"update","record":"S2","values":{"recording":"\#(recording.base64EncodedString())"}}"#,
        ]
        let file = try peers.directory.write(lines.joined(separator: "\n") + "\n", to: "ops.jsonl")
        let before = try peers.digest("A")
        let dry = try StorekeepProcess.run(["apply", peers.store("A"), file, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry)")
        #expect(try dry.jsonObject()["dryRun"] as? Bool == true)
        #expect(try dry.jsonObject()["sequence"] == nil)
        #expect(try peers.digest("A") == before, "a dry run saves nothing")

        let applied = try StorekeepProcess.run(["apply", peers.store("A"), file, "--author", "ops", "--json"])
        #expect(applied.status == 0, "\(applied)")
        let report = try applied.jsonObject()
        #expect(report["sequence"] as? Int == 2)
        #expect(report["updated"] as? Int == 3, "\(report)")
        let author = try peers.database("A").read { try String.fetchOne($0, sql: "SELECT author FROM sk_transaction WHERE seq = 2") }
        #expect(author == "ops")
        _ = try peers.syncUntilQuiet()
        #expect(try peers.digest("A") == peers.digest("B"))
        // On B: S1 is Toast's, S2 is not, and S2's recording is the bytes given.
        let (typed, bytes) = try peers.database("B").read { db in
            (try String.fetchAll(db, sql: "SELECT _gid FROM e_Speech WHERE r_type IS NOT NULL ORDER BY _gid"),
             try Data.fetchOne(db, sql: "SELECT a_recording FROM e_Speech WHERE _gid = 'S2'"))
        }
        #expect(typed == ["S1"], "\(typed)")
        #expect(bytes == recording || bytes.map { $0.count < recording.count } == true, "stored inline, or as a blob reference")
        let missing = try StorekeepProcess.run(["apply", peers.store("A"), peers.directory.url.appendingPathComponent("nowhere.jsonl").path])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr.contains("nowhere.jsonl"))
    }

    @Test("a format-3 store is upgraded by its first sync and exports its history with the values and deletes")
    func formatThreeStoreSyncs() throws {
        let peers = try SyncPeers(["A", "B"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1"),
                                      SpeechLines.speech("S2", title: "two", type: "T1")]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.retitle("S1", "retitled")]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.delete("S2")]).status == 0)
        let expected = try peers.digest("A")
        // Made as storekeep wrote format 3: no clocks, payloads, counters or tombstones.
        try DatabaseQueue(path: peers.store("A")).write { db in
            try db.execute(sql: """
                ALTER TABLE sk_transaction DROP COLUMN hlc;
                ALTER TABLE sk_change DROP COLUMN payload;
                ALTER TABLE sk_peer DROP COLUMN last_seq;
                ALTER TABLE sk_peer DROP COLUMN exported_seq;
                ALTER TABLE sk_peer DROP COLUMN last_seen;
                DROP TABLE sk_clock; DROP TABLE sk_member_clock; DROP TABLE sk_tombstone; DROP TABLE sk_seed_mark;
                DELETE FROM sk_metadata WHERE key = 'clock';
                UPDATE sk_metadata SET value = '3' WHERE key = 'formatVersion';
                """)
        }
        #expect(try StorekeepProcess.run(["info", peers.store("A"), "--json"]).jsonObject()["formatVersion"] as? Int == 3)
        let sync = try peers.sync("A", ["--json"])
        #expect(sync.status == 0, "\(sync)")
        #expect(try sync.jsonObject()["exportedTransactions"] as? Int == 3)
        #expect(try StorekeepProcess.run(["info", peers.store("A"), "--json"]).jsonObject()["formatVersion"] as? Int == 4)
        _ = try peers.syncUntilQuiet()
        #expect(try peers.digest("B") == expected)
        #expect(try peers.digest("A") == expected)
        // The delete travelled as a tombstone: B keeps S2 deleted against a late insert of it.
        let tombstones = try peers.database("B").read { try String.fetchAll($0, sql: "SELECT gid FROM sk_tombstone") }
        #expect(tombstones == ["S2"])
        #expect(try StorekeepProcess.run(["check", peers.store("A")]).status == 0)
    }

    @Test("a peer that comes back after the rekeyed namespace was archived follows, and its offline changes arrive")
    func comebackAfterNewNamespaceArchived() throws {
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1")]).status == 0)
        _ = try peers.syncUntilQuiet()
        #expect(try peers.apply("C", [SpeechLines.speech("S3", title: "offline on C", type: "T1")]).status == 0)
        #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("S2", title: "on B after the rekey", type: "T1")]).status == 0)
        for name in ["B", "A", "B"] { #expect(try peers.sync(name).status == 0) }
        let archive = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        #expect(archive.status == 0, "\(archive)")
        #expect(try archive.jsonObject()["archivedLogs"] as? Int ?? 0 >= 1, "\(archive.stdout)")
        // C was never in the new namespace: it follows the redirect, starts from the baseline.
        let back = try peers.sync("C", ["--json"])
        #expect(back.status == 0, "\(back)")
        #expect(try back.jsonObject()["followedRedirectFrom"] as? String == "SpeechTimer")
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        #expect(try speechCount(peers.store("A")) == 3)
    }
}
