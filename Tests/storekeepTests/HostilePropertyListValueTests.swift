import Foundation
import ObjectModel
import SyncStore
import Testing

/// `storekeep migrate` of property lists holding values a type cannot hold exactly: each record is
/// rejected with its reason, never stored with the value emptied or rounded; the run verifies, and
/// running it again says it is done. Files written by Python's plistlib, the built binary.
@Suite("storekeep migrate: property-list values that cannot be carried")
struct HostilePropertyListValueTests {
    @Test("NaN and an integer no Double holds are rejected, infinity is carried, and a second run is already done",
          arguments: ["binary", "xml"])
    func unrepresentableValuesAreRejected(format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SpeechTimerData.write(in: directory, name: "data.plist", speeches: 20, format: format)
        try SpeechTimerData.editSpeeches(of: source, """
            s[3]['duration'] = float('nan')
            s[5]['duration'] = float('inf')
            s[7]['duration'] = 2**60 + 1
            """)
        let target = directory.url.appendingPathComponent("t.store").path

        let stopped = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping])
        #expect(stopped.status == 65, "\(stopped)")
        #expect(stopped.stderr.contains("speeches[3].duration: Double cannot hold NaN"), "\(stopped.stderr)")

        let skipped = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--on-error", "skip", "--json"])
        #expect(skipped.status == 0, "\(skipped)")
        let report = try skipped.jsonObject()
        #expect(report["verified"] as? Bool == true)
        let speeches = (report["streams"] as? [[String: Any]] ?? []).first { $0["entity"] as? String == "Speech" } ?? [:]
        #expect(speeches["written"] as? Int == 18, "\(speeches)")
        #expect(speeches["rejected"] as? Int == 2, "\(speeches)")
        let rejected = try String(contentsOfFile: target + ".rejected.jsonl", encoding: .utf8)
        #expect(rejected.contains("speeches[3].duration: Double cannot hold NaN"), "\(rejected)")
        #expect(rejected.contains("speeches[7].duration: 1152921504606846977 has no exact Double"), "\(rejected)")

        let store = try SyncStore.open(at: target, readOnly: true)
        let durations = try store.globalIDs(of: "Speech").compactMap { try store.record($0)?.values["duration"] }
        #expect(durations.contains(.double(.infinity)), "an infinite duration is carried as it is")
        #expect(!durations.contains(.null), "no duration was emptied")

        let again = try StorekeepProcess.run(["migrate", source, "--to", target, "--mapping", SpeechTimerData.mapping, "--on-error", "skip", "--json"])
        #expect(again.status == 0, "\(again)")
        #expect(try again.jsonObject()["outcome"] as? String == "alreadyCompleted")
    }
}
