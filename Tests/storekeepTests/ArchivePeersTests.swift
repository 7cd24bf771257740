import Foundation
import Testing

/// `archive` and `peers` through the real binary: `--older-than` archives and prunes only the logs
/// old enough, silent peers are reported and only forgotten on `peers forget`, a forgotten peer
/// that returns catches up, a peer with sync off keeps its unexported history, and `restore`
/// refuses before it writes anything.
@Suite("archive and peers")
struct ArchivePeersTests {
    private func age(_ file: URL, days: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-days * 86_400)], ofItemAtPath: file.path)
    }

    @Test("--older-than archives the old logs of each peer up to the first young one, and prunes only their history")
    func olderThan() throws {
        let peers = try SyncPeers.exchanging(rounds: 6)
        defer { peers.directory.remove() }
        // A's logs 1–3 and 5 are old, 4 is young: only 1–3 may go (5 would leave a hole). B's 1–2.
        let aLogs = try peers.logs("A"), bLogs = try peers.logs("B")
        #expect(aLogs.count == 6 && bLogs.count == 6)
        for index in [0, 1, 2, 4] { try age(aLogs[index], days: 10) }
        for index in [0, 1] { try age(bLogs[index], days: 10) }
        let before = try peers.history("A")
        let result = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--older-than", "1d", "--json"])
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        #expect(report["archivedLogs"] as? Int == 5, "\(result.stdout)")
        #expect(report["removedLogs"] as? Int == 5)
        #expect((report["watermark"] as? [String: Int]) == ["A": 6, "B": 6], "the all-peer watermark, as it is")
        #expect((report["prunedThrough"] as? [String: Int]) == ["A": 3, "B": 2], "\(result.stdout)")
        #expect(try peers.logs("A").map(\.lastPathComponent) == aLogs[3...].map(\.lastPathComponent))
        #expect(try peers.logs("B").map(\.lastPathComponent) == bLogs[2...].map(\.lastPathComponent))
        // The history of the logs that stay is kept: the store can write them again.
        let after = try peers.history("A")
        for sequence in Int64(4)...6 { #expect(after.contains(PeerTransaction(peer: "A", sequence: sequence)), "A#\(sequence)") }
        for sequence in Int64(3)...6 { #expect(after.contains(PeerTransaction(peer: "B", sequence: sequence)), "B#\(sequence)") }
        #expect(after.count < before.count)
        // A new device joins: the baseline and the logs that stay give it the same content.
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        #expect(try StorekeepProcess.run(["sync", fresh, "--container", peers.container]).status == 0)
        let sync = try peers.sync("A", ["--json"])
        #expect(sync.status == 0 && !sync.stdout.contains("log.unrecoverable"), "\(sync)")
        let joined = try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String
        #expect(joined == (try peers.digest("A")))
    }

    @Test("a silent peer is reported by --forget-after and holds archiving back until forgotten; forgotten, it can come back")
    func silentAndForgottenPeers() throws {
        let peers = try SyncPeers.exchanging(["A", "B", "C"], rounds: 2)
        defer { peers.directory.remove() }
        // C goes silent with a change it has not exported; A and B go on.
        #expect(try peers.apply("C", [SpeechLines.speech("C-offline", title: "made while silent")]).status == 0)
        for round in 2..<4 {
            #expect(try peers.apply("A", [SpeechLines.speech("A\(round)", title: "a \(round)")]).status == 0)
            #expect(try peers.sync("A").status == 0)
            #expect(try peers.sync("B").status == 0)
        }
        // C's manifest says it was last seen 100 days ago.
        let manifest = try peers.logFolder("C").deletingLastPathComponent().appendingPathComponent("manifest.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        document["lastSeen"] = Date().timeIntervalSince1970 - 100 * 86_400
        try JSONSerialization.data(withJSONObject: document).write(to: manifest)

        let held = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--forget-after", "30d", "--json"]).jsonObject()
        #expect((held["silentPeers"] as? [[String: Any]])?.map { $0["peer"] as? String } == ["C"], "\(held)")
        #expect(held["registeredPeers"] as? [String] == ["A", "B", "C"], "reported, not forgotten")
        #expect((held["watermark"] as? [String: Int])?["A"] == 2, "C imported A's first 2 only: \(held)")
        #expect(held["archivedLogs"] as? Int == 4, "A's 1–2 and B's 1–2")
        #expect(try peers.logs("A").count == 2, "A's 3–4 stay for C")

        let list = try StorekeepProcess.run(["peers", "list", peers.store("A"), "--container", peers.container, "--json"])
        #expect(list.status == 0, "\(list)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["peer"] as? String } == ["A", "B", "C"])
        #expect(listed.first { $0["peer"] as? String == "A" }?["isLocal"] as? Bool == true)
        #expect(listed.allSatisfy { $0["forgotten"] as? Bool == false })

        #expect(try StorekeepProcess.run(["peers", "forget", peers.store("A"), "--container", peers.container, "--peer", "A"]).status == 64)
        #expect(try StorekeepProcess.run(["peers", "forget", peers.store("A"), "--container", peers.container, "--peer", "Z"]).status == 64)
        #expect(try StorekeepProcess.run(["peers", "forget", peers.store("A"), "--container", peers.container, "--peer", "C"]).status == 0)
        let forgotten = try JSONSerialization.jsonObject(with: Data(try StorekeepProcess.run(["peers", "list", peers.store("A"), "--container", peers.container, "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(forgotten?.first { $0["peer"] as? String == "C" }?["forgotten"] as? Bool == true)

        let archived = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"]).jsonObject()
        #expect(archived["forgottenPeers"] as? [String] == ["C"])
        #expect(archived["archivedLogs"] as? Int == 2, "A's 3–4 now go: \(archived)")
        #expect(try peers.logs("A").isEmpty)
        // No peer is told to restore archives because of the forgotten one's old manifest (A's
        // next log leaves a gap after what C said it imported: archived, not lost).
        #expect(try peers.apply("A", [SpeechLines.speech("A-after", title: "after the archive")]).status == 0)
        for name in ["A", "B", "A"] {
            let sync = try peers.sync(name, ["--json"])
            #expect(sync.status == 0, "\(sync)")
            #expect(!sync.stdout.contains("log.unrecoverable"), "\(name): \(sync.stdout)")
        }
        // C comes back: it starts from the baseline, and its offline speech reaches everyone.
        #expect(try peers.syncUntilQuiet() <= 4)
        #expect(try peers.digest("A") == peers.digest("C"))
        #expect(try peers.digest("B") == peers.digest("C"))
        let speeches = try StorekeepProcess.run(["digest", peers.store("A"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 8)
        let back = try JSONSerialization.jsonObject(with: Data(try StorekeepProcess.run(["peers", "list", peers.store("A"), "--container", peers.container, "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(back?.first { $0["peer"] as? String == "C" }?["forgotten"] as? Bool == false, "a peer that syncs again counts again")
    }

    @Test("a store with sync off keeps its unexported history through an archive; switched on, it is exported")
    func disabledPeerHistoryKept() throws {
        let peers = try SyncPeers.exchanging(rounds: 2)
        defer { peers.directory.remove() }
        #expect(try peers.sync("A", ["--disable"]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("A-off-1", title: "off 1")]).status == 0)
        #expect(try peers.apply("A", [SpeechLines.speech("A-off-2", title: "off 2")]).status == 0)
        let archive = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        #expect(archive.status == 0, "\(archive)")
        #expect((try archive.jsonObject()["watermark"] as? [String: Int])?["A"] == 2)
        let history = try peers.history("A")
        #expect(history.contains(PeerTransaction(peer: "A", sequence: 3)) && history.contains(PeerTransaction(peer: "A", sequence: 4)))
        #expect(try peers.sync("A", ["--enable"]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 3)
        #expect(try peers.digest("A") == peers.digest("B"))
        let speeches = try StorekeepProcess.run(["digest", peers.store("B"), "--json"]).jsonObject()["entities"] as? [String: Any]
        #expect((speeches?["Speech"] as? [String: Any])?["records"] as? Int == 6)
    }

    @Test("night after night, archive leaves one baseline of its own (the earlier ones go), the rekey's stays, and a new device joins from the newest")
    func supersededBaselinesGo() throws {
        let peers = try SyncPeers.exchanging(rounds: 1)
        defer { peers.directory.remove() }
        #expect(try StorekeepProcess.run(["rekey", peers.store("A"), "--container", peers.container, "--to", "SpeechTimer-2"]).status == 0)
        #expect(try peers.syncUntilQuiet() <= 4)
        let content = URL(fileURLWithPath: peers.container).appendingPathComponent("SpeechTimer-2")
        let hash = try #require(try FileManager.default.contentsOfDirectory(atPath: content.path).first { !$0.hasPrefix(".") })
        let folder = content.appendingPathComponent(hash).appendingPathComponent("baselines")
        func baselines() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".skbase") }.sorted() }
        let rekeyBaselines = try baselines()
        #expect(rekeyBaselines.count == 1)
        var previous: String?
        for night in 0..<3 {
            #expect(try peers.apply("A", [SpeechLines.speech("night-\(night)", title: "night \(night)")]).status == 0)
            #expect(try peers.syncUntilQuiet() <= 3)
            let result = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
            #expect(result.status == 0, "\(result)")
            let report = try result.jsonObject()
            #expect(report["archivedLogs"] as? Int ?? 0 > 0, "\(result.stdout)")
            let written = try #require((report["baseline"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent })
            #expect(written != previous, "each night covers more: a new baseline")
            let removed = (report["removedBaselines"] as? [String] ?? []).map { URL(fileURLWithPath: $0).lastPathComponent }
            #expect(removed == (previous.map { [$0] } ?? []), "the night before's baseline goes, nothing else: \(result.stdout)")
            #expect(try baselines() == (rekeyBaselines + [written]).sorted())
            previous = written
        }
        // A new device starts from the newest and reaches the same content.
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer-2", "--peer-id", "N"]).status == 0)
        let joined = try StorekeepProcess.run(["sync", fresh, "--container", peers.container, "--json"])
        let newest = try #require(previous)
        let applied = try joined.jsonObject()["baselinesApplied"] as? [String]
        #expect(joined.status == 0 && applied?.first?.hasSuffix(newest) == true, "\(joined)")
        #expect(try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String == (try peers.digest("A")))
    }

    /// Runs `chattr` on `file` (`+i`: not even root may remove it); whether it worked.
    private static func chattr(_ flag: String, _ file: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, file]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether the temporary folder's file system can make a file impossible to remove.
    private static let immutableFilesWork: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("sk-immutable-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
        defer { _ = chattr("-i", probe); unlink(probe) }
        return chattr("+i", probe) && unlink(probe) != 0
    }()

    @Test("an earlier baseline that cannot be removed is left for the next run; the archive itself succeeds",
          .enabled(if: immutableFilesWork, "needs a file system where chattr +i works"))
    func unremovableBaselineIsLeftForTheNextRun() throws {
        let peers = try SyncPeers.exchanging(rounds: 1)
        defer { peers.directory.remove() }
        func nightly(_ night: Int) throws -> [String: Any] {
            #expect(try peers.apply("A", [SpeechLines.speech("night-\(night)", title: "night \(night)")]).status == 0)
            #expect(try peers.syncUntilQuiet() <= 3)
            let result = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
            #expect(result.status == 0, "\(result)")
            return try result.jsonObject()
        }
        let first = try #require(try nightly(0)["baseline"] as? String)
        #expect(Self.chattr("+i", first))
        defer { _ = Self.chattr("-i", first) }
        let second = try nightly(1)
        #expect((second["removedBaselines"] as? [String])?.isEmpty == true)
        #expect((second["notes"] as? [String] ?? []).contains { $0.contains("could not be removed") }, "\(second)")
        #expect(second["verified"] as? Bool == true && second["removedLogs"] as? Int ?? 0 > 0)
        #expect(FileManager.default.fileExists(atPath: first))
        #expect(Self.chattr("-i", first))
        let third = try nightly(2)
        #expect((third["removedBaselines"] as? [String])?.count == 2, "both earlier ones go now: \(third)")
    }

    @Test("an earlier baseline is kept while the newest does not read back whole")
    func earlierBaselineKeptBesideADamagedNewest() throws {
        let peers = try SyncPeers.exchanging(rounds: 1)
        defer { peers.directory.remove() }
        let result = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        let written = try #require(try result.jsonObject()["baseline"] as? String)
        // A newer name holding the same coverage, damaged in its body (its header still reads).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: written))
        bytes[bytes.count / 2] ^= 0xFF
        let damaged = URL(fileURLWithPath: written).deletingLastPathComponent().appendingPathComponent("00000000000000000099-Z.skbase")
        try bytes.write(to: damaged)
        let again = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        #expect(again.status == 0, "\(again)")
        let report = try again.jsonObject()
        #expect((report["removedBaselines"] as? [String])?.isEmpty == true, "\(again.stdout)")
        #expect((report["notes"] as? [String] ?? []).contains { $0.contains("does not verify") }, "\(again.stdout)")
        #expect(FileManager.default.fileExists(atPath: written))
    }

    @Test("no log leaves for a newest baseline that does not read back: exit 65, nothing removed; moved away, the next archive writes its own")
    func damagedCoveringBaselineStopsTheArchive() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        // B archives the old logs only; its baseline covers every log, the young ones stay.
        for name in ["A", "B"] { try age(try peers.logs(name)[0], days: 10) }
        let first = try StorekeepProcess.run(["archive", peers.store("B"), "--container", peers.container, "--older-than", "1d", "--json"])
        #expect(first.status == 0, "\(first)")
        let baseline = URL(fileURLWithPath: try #require(try first.jsonObject()["baseline"] as? String))
        var bytes = try Data(contentsOf: baseline)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: baseline)
        let staying = try peers.logs("A") + peers.logs("B")
        #expect(staying.count == 4)
        let refused = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains(baseline.lastPathComponent) && refused.stderr.contains("nothing was archived or removed"), "\(refused.stderr)")
        #expect(try peers.logs("A") + peers.logs("B") == staying)
        // Moved away, it is no longer relied on: A writes its own, and a new device joins from it.
        try FileManager.default.moveItem(at: baseline, to: peers.directory.url.appendingPathComponent("damaged.skbase"))
        let second = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"])
        #expect(second.status == 0, "\(second)")
        #expect(try second.jsonObject()["archivedLogs"] as? Int == 4, "\(second.stdout)")
        let fresh = peers.directory.url.appendingPathComponent("N.store").path
        #expect(try StorekeepProcess.run(["init", fresh, "--model", ModelFiles.speechTimer, "--content-name", "SpeechTimer", "--peer-id", "N"]).status == 0)
        #expect(try StorekeepProcess.run(["sync", fresh, "--container", peers.container]).status == 0)
        #expect(try StorekeepProcess.run(["digest", fresh, "--json"]).jsonObject()["digest"] as? String == (try peers.digest("A")))
    }

    @Test("restore refuses before it writes anything when a file with other content is in the way; a restore stopped half-way runs again; --force restores")
    func restoreRefusesFirst() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        let archive = try #require(try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--json"]).jsonObject()["archive"] as? String)
        let target = peers.directory.url.appendingPathComponent("restored").path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", target]).status == 0)
        // All but one file removed: the one left is in the way.
        let files = try FileManager.default.subpathsOfDirectory(atPath: target).filter { $0.hasSuffix(".sklog") }.sorted()
        #expect(files.count == 6)
        for file in files.dropFirst(3) { try FileManager.default.removeItem(atPath: "\(target)/\(file)") }
        for file in files.prefix(2) { try FileManager.default.removeItem(atPath: "\(target)/\(file)") }
        // What a restore killed half-way leaves (files written whole, as the archive holds them):
        // running it again keeps them and writes the rest.
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", target]).status == 0)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: target).filter { $0.hasSuffix(".sklog") }.sorted() == files)
        for file in files.dropFirst(3) { try FileManager.default.removeItem(atPath: "\(target)/\(file)") }
        for file in files.prefix(2) { try FileManager.default.removeItem(atPath: "\(target)/\(file)") }
        // A file with other content under an entry's name is in the way.
        try Data("not the archived log".utf8).write(to: URL(fileURLWithPath: "\(target)/\(files[2])"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: target).sorted()
        let refused = try StorekeepProcess.run(["archive", "restore", archive, "--container", target])
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.stderr.contains(files[2]), "the file in the way is named: \(refused.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: target).sorted() == before, "nothing was written")
        #expect(try StorekeepProcess.run(["archive", "restore", archive, "--container", target, "--force"]).status == 0)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: target).filter { $0.hasSuffix(".sklog") }.count == 6)
    }

    @Test("an archive that fails while its baseline is being written waits for the baseline: published whole, nothing half-written, no crash at exit")
    func failedArchiveWaitsForItsBaseline() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        // The archive's folder is a file: the archive fails at once, while the baseline is written on another thread.
        let blocked = peers.directory.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let result = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--to", blocked.appendingPathComponent("archives").path])
        #expect(result.status != 0, "\(result)")
        #expect(!result.stderr.contains("crashed") && !result.stderr.contains("Fatal error"), "\(result.stderr)")
        let files = FileManager.default.enumerator(atPath: peers.container)?.allObjects.compactMap { $0 as? String } ?? []
        let baselines = files.filter { $0.contains("/baselines/") }
        #expect(baselines.filter { $0.hasSuffix(".skbase") && !($0.split(separator: "/").last ?? "").hasPrefix(".") }.count == 1,
                "the baseline was finished before the command ended: \(baselines)")
        #expect(baselines.allSatisfy { !($0.split(separator: "/").last ?? "").hasPrefix(".") }, "no half-written baseline: \(baselines)")
        #expect(try peers.logs("A").count == 3, "no log left the container")
    }
}
