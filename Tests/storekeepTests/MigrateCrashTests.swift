import Foundation
import Testing

/// Crash tests: the real binary killed with SIGKILL part-way through a migration, then run again.
@Suite("storekeep migrate: killed and resumed", .serialized)
struct MigrateCrashTests {
    @Test("SIGKILL at several points, then the same command, gives the uninterrupted result", arguments: [
        [.storeCreation], [.recordsCommitted(3_000)], [.recordsCommitted(7_000)],
        [.recordsCommitted(2_000), .recordsCommitted(2_500), .recordsCommitted(3_000)],
    ] as [[MigrationKillPoint]])
    func killAndResume(points: [MigrationKillPoint]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 12_000, recordingEvery: 25)
        let reference = directory.url.appendingPathComponent("reference.store").path
        let whole = try StorekeepProcess.run(["migrate", source, "--to", reference, "--mapping", SpeechTimerData.mapping, "--batch-size", "100", "--json"])
        #expect(whole.status == 0, "\(whole)")
        let expected = try whole.jsonObject()["digest"] as? String

        let target = directory.url.appendingPathComponent("killed.store").path
        let arguments = ["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--batch-size", "100"]
        let report = try killThenResume(arguments, target: target, points: points, expectedDigest: expected)
        let streams = report["streams"] as? [[String: Any]] ?? []
        #expect(streams.map { $0["written"] as? Int ?? -1 } == [7, 12_000, 1])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("creating") }
        #expect(leftovers.isEmpty)
    }

    /// The same with a Core Data store, whose rows SQLite copies in `INSERT … SELECT` batches: a
    /// kill between or inside those batches loses nothing and repeats nothing, records or history.
    @Test("a Core Data migration killed part-way, then run again, gives the uninterrupted result", arguments: [
        [.recordsCommitted(15_000)], [.recordsCommitted(45_000)],
        [.recordsCommitted(15_000), .recordsCommitted(30_000), .recordsCommitted(45_000)],
    ] as [[MigrationKillPoint]])
    func killAndResumeCoreData(points: [MigrationKillPoint]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rows = 60_000
        let source = directory.url.appendingPathComponent("items.sqlite").path
        try SpeechTimerData.python([StorekeepProcess.packageRoot.appendingPathComponent("Benchmarks/generate-coredata-store.py").path,
                                    source, "--rows", String(rows)])
        let reference = directory.url.appendingPathComponent("reference.store").path
        let whole = try StorekeepProcess.run(["migrate", source, "--to", reference, "--batch-size", "500", "--json"])
        #expect(whole.status == 0, "\(whole)")
        let expected = try whole.jsonObject()["digest"] as? String

        let target = directory.url.appendingPathComponent("killed.store").path
        let arguments = ["migrate", source, "--to", target, "--batch-size", "500"]
        let report = try killThenResume(arguments, target: target, points: points, expectedDigest: expected)
        #expect((report["streams"] as? [[String: Any]])?.map { $0["written"] as? Int ?? -1 } == [rows])
        let info = try StorekeepProcess.run(["info", target, "--json"]).jsonObject()
        #expect((info["history"] as? [String: Any])?["changes"] as? Int == rows, "each record's insert is in the history once")
    }

    /// Runs `arguments` (a migration into `target`) killed at each of `points`, then once more to
    /// the end; checks that the last run verified and holds the digest of an uninterrupted run.
    /// Every kill must land inside a run. Returns the last run's JSON report.
    private func killThenResume(_ arguments: [String], target: String, points: [MigrationKillPoint], expectedDigest: String?) throws -> [String: Any] {
        for point in points {
            let killed = try StorekeepProcess.runAndKill(arguments, migratingInto: target, at: point)
            #expect(killed, "the migration ended before it was killed \(point)")
        }
        let resumed = try StorekeepProcess.run(arguments + ["--json"])
        #expect(resumed.status == 0, "\(resumed)")
        let report = try resumed.jsonObject()
        #expect(report["verified"] as? Bool == true)
        #expect(report["digest"] as? String == expectedDigest, "the resumed store holds what an uninterrupted run writes")
        return report
    }
}
