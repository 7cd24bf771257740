import Foundation
import Testing

/// Crash tests: the real binary killed with SIGKILL part-way through a migration, then run again.
@Suite("storekeep migrate: killed and resumed", .serialized)
struct MigrateCrashTests {
    @Test("SIGKILL at several points, then the same command, gives the uninterrupted result", arguments: [[0.05], [0.3], [0.6], [0.2, 0.25, 0.3]])
    func killAndResume(delays: [Double]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 12_000, recordingEvery: 25)
        let reference = directory.url.appendingPathComponent("reference.store").path
        let whole = try StorekeepProcess.run(["migrate", source, "--to", reference, "--mapping", SpeechTimerData.mapping, "--batch-size", "100", "--json"])
        #expect(whole.status == 0, "\(whole)")
        let expected = try whole.jsonObject()["digest"] as? String

        let target = directory.url.appendingPathComponent("killed.store").path
        let arguments = ["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--batch-size", "100"]
        let (report, killedMidway) = try killThenResume(arguments, delays: delays, expectedDigest: expected)
        let streams = report["streams"] as? [[String: Any]] ?? []
        #expect(streams.map { $0["written"] as? Int ?? -1 } == [7, 12_000, 1])
        #expect(killedMidway, "the process was still running when killed (make the source bigger if this fails)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("creating") }
        #expect(leftovers.isEmpty)
    }

    /// The same with a Core Data store, whose rows SQLite copies in `INSERT … SELECT` batches: a
    /// kill between or inside those batches loses nothing and repeats nothing, records or history.
    @Test("a Core Data migration killed part-way, then run again, gives the uninterrupted result", arguments: [[0.3], [0.9], [0.3, 0.5, 0.8]])
    func killAndResumeCoreData(delays: [Double]) throws {
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
        let (report, killedMidway) = try killThenResume(arguments, delays: delays, expectedDigest: expected)
        #expect((report["streams"] as? [[String: Any]])?.map { $0["written"] as? Int ?? -1 } == [rows])
        let info = try StorekeepProcess.run(["info", target, "--json"]).jsonObject()
        #expect((info["history"] as? [String: Any])?["changes"] as? Int == rows, "each record's insert is in the history once")
        #expect(killedMidway, "the process was still running when killed (make the source bigger if this fails)")
    }

    /// Runs `arguments` killed after each of `delays`, then once more to the end; checks that the
    /// last run verified and holds the digest of an uninterrupted run. Returns its JSON report and
    /// whether any kill landed while the process was running.
    private func killThenResume(_ arguments: [String], delays: [Double], expectedDigest: String?) throws -> ([String: Any], Bool) {
        var killedMidway = false
        for delay in delays where try StorekeepProcess.runAndKill(arguments, after: delay) {
            killedMidway = true
        }
        let resumed = try StorekeepProcess.run(arguments + ["--json"])
        #expect(resumed.status == 0, "\(resumed)")
        let report = try resumed.jsonObject()
        #expect(report["verified"] as? Bool == true)
        #expect(report["digest"] as? String == expectedDigest, "the resumed store holds what an uninterrupted run writes")
        return (report, killedMidway)
    }
}
