import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// A disk that runs full part-way through `migrate`, through a blob write, through `repair`'s
/// backup, and under an archive, a restore and a rekey's baseline: the documented exit status and
/// one clear message, the source untouched, no lock left, and a target that a run with room
/// finishes, to the same content as a run that never ran out.
@Suite("disk full", .serialized, .enabled(if: SmallDisk.isAvailable, SmallDisk.unavailable))
struct DiskFullTests {
    private func sha256(_ path: String) throws -> String {
        SHA256.hexDigest(of: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func digest(_ store: String) throws -> String {
        let result = try StorekeepProcess.run(["digest", store, "--json"])
        try #require(result.status == 0, "\(result)")
        return try result.jsonObject()["digest"] as? String ?? ""
    }

    /// Migrates `source` onto a disk left with `room` bytes; checks the failure, then reruns with room.
    private func migrateRunsOutOfSpace(source: String, room: Int, expecting words: String, in directory: TemporaryDirectory) throws {
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let target = disk.url.appendingPathComponent("t.store").path
        let before = try sha256(source)
        try disk.fill(leaving: room)

        let full = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping], timeout: 120)
        #expect(full.status == 74, "a full disk part-way is an I/O failure (74): \(full)")
        #expect(full.stderr.contains("storekeep: error: \(target): "), "the message names the target: \(full.stderr)")
        #expect(full.stderr.contains("the disk is full") && full.stderr.contains(words), "\(full.stderr)")
        #expect(full.stderr.contains("hint: free some space"), "the message says what to do: \(full.stderr)")
        #expect(!full.stderr.contains("crashed") && !full.stderr.contains("Fatal error"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: StoreLock.lockPath(for: target)), "the lock was left behind")
        #expect(try sha256(source) == before, "the source was modified")

        try disk.makeRoom()
        let rerun = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--json"], timeout: 120)
        #expect(rerun.status == 0, "with room again the run finishes: \(rerun)")
        let reference = directory.url.appendingPathComponent("reference.store").path
        let uninterrupted = try StorekeepProcess.run(["migrate", source, "--to", reference, "--mapping", SpeechTimerData.mapping], timeout: 120)
        try #require(uninterrupted.status == 0, "\(uninterrupted)")
        #expect(try digest(target) == digest(reference), "the resumed target holds what an uninterrupted run writes")
    }

    @Test("migrate: the disk fills while batches are written")
    func migrateFillsTheDisk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // An empty store of format 4 takes about 350 KB of 16 KB pages (and as much again in its WAL):
        // the room leaves the creation whole and runs out among the batches.
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 8000, recordingEvery: 0)
        try migrateRunsOutOfSpace(source: source, room: 1_200 << 10, expecting: "cannot write a batch", in: directory)
    }

    @Test("migrate: the disk fills while a blob file is written")
    func blobWriteFillsTheDisk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // 300 recordings of 3 to 12 KB: about 2 MB of blob files, written before the rows that refer to them.
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 300, recordingEvery: 1)
        try migrateRunsOutOfSpace(source: source, room: 1500 << 10, expecting: "cannot write the external value of Speech.recording", in: directory)
    }

    @Test("repair: a backup that does not fit exits 73, changes nothing, leaves no partial backup; with room it runs")
    func repairBackupDoesNotFit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 100, recordingEvery: 2)
        let store = disk.url.appendingPathComponent("s.store").path
        try #require(try StorekeepProcess.run(["migrate", source, "--to", store, "--mapping", SpeechTimerData.mapping]).status == 0)
        let damaged = try SyncStore.open(at: store)
        let speech = try #require(try damaged.globalIDs(of: "Speech").first)
        try RepairShelfModel.raw(store, "UPDATE e_Speech SET r_type = 'GONE' WHERE _gid = ?", [speech.rawValue])
        let copy = directory.url.appendingPathComponent("copy.store").path
        try damaged.backup(to: copy)
        let before = try digest(store)
        let history = try damaged.historySummary().transactions
        try disk.fill(leaving: 64 << 10)

        let full = try StorekeepProcess.run(["repair", store])
        #expect(full.status == 73, "a backup that cannot be created is 73 (docs/repair.md): \(full)")
        #expect(full.stderr.contains("\(store).repair-") && full.stderr.contains("the disk is full"), "\(full.stderr)")
        #expect(full.stderr.contains("nothing was repaired") && full.stderr.contains("hint: free space"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: StoreLock.lockPath(for: store)), "the lock was left behind")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.url.path).filter { $0.contains(".repair-") }
        #expect(left.isEmpty, "a partial backup was left: \(left)")
        #expect(try digest(store) == before && SyncStore.open(at: store, readOnly: true).historySummary().transactions == history)

        try disk.makeRoom()
        let rerun = try StorekeepProcess.run(["repair", store, "--json"])
        #expect(rerun.status == 1, "the speech left without a type is the user's to fix (policy keep): \(rerun)")
        #expect(try rerun.jsonObject()["backup"] as? String != nil)
        #expect(try StorekeepProcess.run(["repair", copy, "--no-backup"]).status == 1)
        #expect(try digest(store) == digest(copy), "the repair after the failure did what an uninterrupted one does")
    }

    /// What every command says on a full disk under its output: exit 73, one message that names a
    /// file in `folder` and the system's reason, `hint`, and no crash.
    private func expectFullDisk(_ full: ProcessResult, naming folder: String, hint: String) {
        #expect(full.status == 73, "a full disk under a command's output is 73 (docs/cli.md): \(full)")
        #expect(full.stderr.contains("storekeep: error: \(folder)/"), "the message names the file it could not write: \(full.stderr)")
        #expect(full.stderr.contains("No space left on device") && full.stderr.contains("hint: \(hint)"), "\(full.stderr)")
        #expect(!full.stderr.contains("crashed") && !full.stderr.contains("Fatal error"), "\(full.stderr)")
    }

    @Test("archive: an archive that does not fit exits 73, removes no log and no history, leaves no partial archive; with room it runs")
    func archiveDoesNotFit() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let destination = disk.url.appendingPathComponent("archives").path
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let logs = try peers.logs("A").map(\.lastPathComponent)
        let history = try peers.history("A")
        try #require(!logs.isEmpty)
        try disk.fill(leaving: 0)

        let full = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--to", destination])
        expectFullDisk(full, naming: destination, hint: "free space where the archive goes")
        let named = try #require(full.stderr.components(separatedBy: "storekeep: error: \(destination)/").dropFirst().first, "the archive is named: \(full.stderr)")
        #expect(!named.hasPrefix("."), "the archive is named by its own name, not its temporary one: \(full.stderr)")
        #expect(full.stderr.contains("the disk is full ("), "\(full.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).isEmpty, "no partial archive is left")
        #expect(try peers.logs("A").map(\.lastPathComponent) == logs, "no log left the container")
        #expect(try peers.history("A") == history, "no history left the store")
        #expect(!FileManager.default.fileExists(atPath: StoreLock.lockPath(for: peers.store("A"))), "the lock was left behind")

        try disk.makeRoom()
        let rerun = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--to", destination, "--json"])
        #expect(rerun.status == 0, "with room the archive is written: \(rerun)")
        let archive = try #require(try rerun.jsonObject()["archive"] as? String)
        #expect(try StorekeepProcess.run(["archive", "verify", archive]).status == 0)
        #expect(try peers.logs("A").count < logs.count, "the archived logs left the container")
    }

    @Test("archive restore: a container disk that fills exits 73 and leaves nothing in it; with room the restore runs")
    func restoreDoesNotFit() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        let archives = peers.directory.url.appendingPathComponent("archives").path
        let archived = try StorekeepProcess.run(["archive", peers.store("A"), "--container", peers.container, "--to", archives, "--json"])
        try #require(archived.status == 0, "\(archived)")
        let archive = try #require(try archived.jsonObject()["archive"] as? String)
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let target = disk.url.appendingPathComponent("restored").path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try disk.fill(leaving: 0)

        let full = try StorekeepProcess.run(["archive", "restore", archive, "--container", target])
        expectFullDisk(full, naming: target, hint: "free space")
        let left = FileManager.default.enumerator(atPath: target)?.allObjects ?? []
        #expect(left.isEmpty, "nothing is left in the container: \(left)")

        try disk.makeRoom()
        let rerun = try StorekeepProcess.run(["archive", "restore", archive, "--container", target])
        #expect(rerun.status == 0, "with room the restore runs: \(rerun)")
        let restored = (FileManager.default.enumerator(atPath: target)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".sklog") }
        #expect(!restored.isEmpty, "the logs are back")
    }

    @Test("rekey: a container disk that fills exits 73 and leaves the store on its content name; with room the same command finishes")
    func rekeyDoesNotFit() throws {
        let peers = try SyncPeers.exchanging(rounds: 3)
        defer { peers.directory.remove() }
        let disk = try SmallDisk()
        defer { disk.unmount() }
        // The peers' container, moved onto the small disk.
        let container = disk.url.appendingPathComponent("container").path
        try FileManager.default.copyItem(atPath: peers.container, toPath: container)
        func info() throws -> [String: Any] { try StorekeepProcess.run(["info", peers.store("A"), "--json"]).jsonObject() }
        let before = try info()
        let history = try peers.history("A")
        try disk.fill(leaving: 0)

        let full = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", container, "--to", "SpeechTimer-2"])
        expectFullDisk(full, naming: container, hint: "free space")
        let after = try info()
        #expect(after["contentName"] as? String == before["contentName"] as? String, "the store keeps its content name")
        #expect((after["rekeys"] as? [Any])?.count ?? 0 == (before["rekeys"] as? [Any])?.count ?? 0, "no rekey is recorded")
        #expect(try peers.history("A") == history, "the store's history is as it was")
        #expect(!FileManager.default.fileExists(atPath: StoreLock.lockPath(for: peers.store("A"))), "the lock was left behind")

        try disk.makeRoom()
        let rerun = try StorekeepProcess.run(["rekey", peers.store("A"), "--container", container, "--to", "SpeechTimer-2"])
        #expect(rerun.status == 0, "with room the same command finishes: \(rerun)")
        #expect(try info()["contentName"] as? String == "SpeechTimer-2")
    }
}
