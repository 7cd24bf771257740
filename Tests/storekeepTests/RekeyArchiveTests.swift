import Foundation
import GRDB
import ObjectModel
import SyncStore
import Testing

/// `rekey` and `archive` through the real binary: every peer follows a rekey, archives verify and
/// restore, and a new peer after an archive reaches the same content (kills: `RekeyArchiveKillTests`).
@Suite("rekey and archive")
struct RekeyArchiveTests {
    /// A, B, C of one content name: A and B synced, C with changes it has not exported.
    private func threePeers() throws -> SyncPeers {
        let peers = try SyncPeers(["A", "B", "C"])
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast"), SpeechLines.speech("S1", title: "one", type: "T1")]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.type("T2", "Panel")]).status == 0)
        for name in peers.names { #expect(try peers.sync(name).status == 0) }
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.apply("C", [SpeechLines.speech("S3", title: "offline on C", type: "T2")]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.retitle("S1", "edited on A")]).status == 0)
        return peers
    }

    @Test("every peer follows a rekey, its unexported changes included")
    func everyPeerFollows() throws {
        let peers = try threePeers()
        defer { peers.directory.remove() }
        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2", "--json"])
        #expect(rekey.status == 0, "\(rekey)")
        // C has not followed yet: check says so.
        let check = try StorekeepProcess.run(["check", peers.store("C"), "--json"])
        #expect(check.stdout.contains("sync.redirected"), "\(check.stdout)")
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        for name in peers.names {
            let info = try StorekeepProcess.run(["info", peers.store(name), "--json"]).jsonObject()
            #expect(info["contentName"] as? String == "SpeechTimer-2")
            #expect(((info["rekeys"] as? [[String: Any]])?.first)?["to"] as? String == "SpeechTimer-2")
        }
        let speeches = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 2, "C's offline speech arrived")
    }

    @Test("a peer that comes back after the old content name was archived still brings its unexported changes across")
    func returnAfterOldNamespaceArchived() throws {
        let peers = try threePeers()
        defer { peers.directory.remove() }
        #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"]).status == 0)
        #expect(try peers.sync("B").status == 0)
        // What every peer imported of the old content name leaves it (C, still there, archives it),
        // C's change made offline is not exported and stays.
        let archived = try StorekeepProcess.run(["archive", peers.store("C"), "--container", peers.container, "--json"])
        #expect(archived.status == 0, "\(archived)")
        #expect((try archived.jsonObject()["archivedLogs"] as? Int ?? 0) > 0, "\(archived.stdout)")
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "\(digests)")
        let speeches = try StorekeepProcess.run(["digest", peers.store("A"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 2, "C's offline speech arrived")
    }

    @Test("a damaged or truncated archive is named by verify and refused by restore; a good one restores a lost container")
    func verifyAndRestore() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        let report = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"]).jsonObject()
        let archive = try #require(report["archive"] as? String)
        #expect(try StorekeepProcess.run(["archive", "verify", archive]).status == 0)
        let list = try StorekeepProcess.run(["archive", "list", archive, "--json"]).jsonObject()
        #expect((list["entries"] as? [[String: Any]])?.count == 6, "the 6 logs (no rekey made a baseline to keep)")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        let damagedPath = peers.directory.url.appendingPathComponent("damaged.tar.zst").path
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        let verify = try StorekeepProcess.run(["archive", "verify", damagedPath])
        #expect(verify.status == 65, "\(verify)")
        #expect(verify.stderr.contains("damaged.tar.zst"))
        let truncatedPath = peers.directory.url.appendingPathComponent("truncated.tar.zst").path
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: truncatedPath))
        #expect(try StorekeepProcess.run(["archive", "verify", truncatedPath]).status == 65)
        let newContainer = peers.directory.url.appendingPathComponent("rebuilt").path
        try FileManager.default.createDirectory(atPath: newContainer, withIntermediateDirectories: true)
        #expect(try StorekeepProcess.run(["archive", "restore", truncatedPath, "--container", newContainer]).status == 65)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: newContainer).isEmpty, "nothing is written from a damaged archive")

        // The container is lost; the archive is restored into a new one, the peers sync, a new device joins.
        let restore = try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer])
        #expect(restore.status == 0, "\(restore)")
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer]).status == 0, "files as archived are kept")
        let restoredLog = try #require(FileManager.default.subpathsOfDirectory(atPath: newContainer).first { $0.hasSuffix(".sklog") })
        try Data("changed".utf8).write(to: URL(fileURLWithPath: "\(newContainer)/\(restoredLog)"))
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer]).status == 73, "nothing is overwritten")
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", newContainer, "--force"]).status == 0)
        #expect(try peers.apply("B", [SpeechLines.speech("late", title: "after the archive")]).status == 0)
        for name in peers.names { #expect(try StorekeepProcess.run(["sync", peers.store(name), "--container", newContainer]).status == 0) }
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        #expect(try StorekeepProcess.run(["sync", fresh, "--container", newContainer]).status == 0)
        for name in peers.names { #expect(try StorekeepProcess.run(["sync", peers.store(name), "--container", newContainer]).status == 0) }
        let joined = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
        #expect(joined == (try peers.digest("B")))
        #expect(try peers.digest("A") == peers.digest("B"))
    }

    @Test("a new peer gets a recording kept in an external file from the rekey's snapshot baseline, and the same content")
    func snapshotBaselineCarriesBlobs() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        let recording = Data((0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let speech = #"{"op":"insert","entity":"Speech","id":"S1","values":{"title":"recorded","date":"2026-11-25T10:00:00Z","duration":30.5,"recording":"\#(recording.base64EncodedString())"}}"#
        #expect(try peers.apply("A", [speech, SpeechLines.type("T1", "Toast")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        let rekey = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2", "--json"])
        #expect(rekey.status == 0, "\(rekey)")
        let baseline = URL(fileURLWithPath: try #require(try rekey.jsonObject()["baseline"] as? String))
        let header = try FramedFileSurgery.header(baseline)
        #expect(header["format"] as? Int == 2 && header["blobFiles"] as? Int == 1, "\(header)")
        // The old content name's logs leave for an archive: only the baseline can bring S1 now.
        for folder in try FileManager.default.subpathsOfDirectory(atPath: peers.container) where folder.hasSuffix(".sklog") {
            try FileManager.default.removeItem(atPath: "\(peers.container)/\(folder)")
        }
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer-2", "--peer-id", "N"]).status == 0)
        let joined = try StorekeepProcess.run(["sync", fresh, "--container", peers.container, "--json"])
        #expect(joined.status == 0, "\(joined)")
        #expect(try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String == (try peers.digest("A")))
        #expect(try SyncStore.open(at: fresh, readOnly: true).record(GlobalID("S1"))?.values["recording"] == .binary(recording))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: peers.directory.url.path).filter { $0.contains(".baseline-") }
        #expect(leftovers.isEmpty, "the unpacked snapshot is removed: \(leftovers)")
    }

    @Test("a snapshot baseline larger than one part (8 MiB) is merged part by part: a new peer gets every recording and the same content")
    func largeSnapshotBaselineIsMergedInParts() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        // Three recordings of 3.5 MiB: the encoded content is more than one part.
        let recordings = (1...3).map { seed in Data((0..<(7 << 19)).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 9) &+ seed) }) }
        let speeches = recordings.enumerated().map { index, recording in
            #"{"op":"insert","entity":"Speech","id":"S\#(index)","values":{"title":"long \#(index)","date":"2026-11-25T10:00:00Z","duration":30.5,"recording":"\#(recording.base64EncodedString())"}}"#
        }
        #expect(try peers.apply("A", speeches).status == 0)
        #expect(try peers.sync("A").status == 0)
        let archived = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container,
                                                 "--to", peers.directory.url.appendingPathComponent("archives").path, "--json"])
        #expect(archived.status == 0, "\(archived)")
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        let joined = try StorekeepProcess.run(["sync", fresh, "--container", peers.container, "--json"])
        #expect(joined.status == 0, "\(joined)")
        #expect((try joined.jsonObject()["baselinesApplied"] as? [String])?.count == 1, "\(joined)")
        #expect(try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String == (try peers.digest("A")))
        let store = try SyncStore.open(at: fresh, readOnly: true)
        for (index, recording) in recordings.enumerated() {
            #expect(try store.record(GlobalID("S\(index)"))?.values["recording"] == .binary(recording))
        }
    }

    @Test("rekey stops with exit 75 and writes nothing while another connection reads the store (its log cannot be folded in)")
    func busyStoreIsRefused() throws {
        let peers = try SyncPeers(["A"])
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.type("T1", "Toast")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        #expect(try peers.apply("A", [SpeechLines.type("T2", "Panel")]).status == 0)
        // The app's connection, in the middle of a read of the log's last commit.
        let app = try DatabaseQueue(path: peers.store("A"))
        let rekey: ProcessResult = try app.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN DEFERRED")
            defer { try? db.execute(sql: "COMMIT") }
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            return try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"])
        }
        #expect(rekey.status == 75, "\(rekey)")
        #expect(rekey.stderr.contains("write-ahead log"), "\(rekey.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(peers.container)/SpeechTimer/redirect.json"), "no redirect")
        #expect(!FileManager.default.fileExists(atPath: "\(peers.container)/SpeechTimer-2"), "nothing in the new content name")
        // Once the app lets go, the same command finishes.
        try app.close()
        #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"]).status == 0)
    }
}
