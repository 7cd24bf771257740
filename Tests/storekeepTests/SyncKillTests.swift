import Foundation
import Testing

/// Peers driven through the real binary (`apply`, `sync`) in seeded random schedules, with syncs
/// SIGKILLed at a crash point chosen by the schedule (`STOREKEEP_CRASH_AFTER`: the same kills on
/// every run) and at random moments; synced until quiet, every peer has the same digest and
/// `check` finds the sync counters in order.
@Suite("sync kill schedules")
struct SyncKillTests {
    @Test("random edits and syncs, some killed, converge", arguments: [11, 12, 13] as [UInt64])
    func killedSyncsConverge(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let peers = try SyncPeers(["A", "B", "C"])
        defer { peers.directory.remove() }
        // Enough for a sync to take a moment, so that kills land inside it.
        #expect(try peers.apply("A", (0..<1_500).map { SpeechLines.speech("A-\($0)", title: "speech \($0)") }).status == 0)
        var known: [String] = (0..<1_500).map { "A-\($0)" }
        var next = 0
        // A's first sync has 1,500 changes to publish: it always reaches its first crash point.
        var killed = try syncKilled(peers, "A", atCrashPoint: 1) ? 1 : 0
        for _ in 0..<14 {
            let peer = peers.names[Int.random(in: 0..<3, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                var lines: [String] = []
                for _ in 0..<Int.random(in: 1...20, using: &random) {
                    next += 1
                    let id = "\(peer)-n\(next)"
                    lines.append(SpeechLines.speech(id, title: "t\(next)"))
                    known.append(id)
                }
                #expect(try peers.apply(peer, lines).status == 0)
            case 1:
                // Edits of records this peer may not have yet fail as a whole: that is fine here.
                let target = known[Int.random(in: 0..<known.count, using: &random)]
                _ = try peers.apply(peer, [SpeechLines.retitle(target, "edited on \(peer)")])
            case 2:
                if try syncKilled(peers, peer, atCrashPoint: Int.random(in: 1...4, using: &random)) { killed += 1 }
            default:
                // Wherever the moment falls: inside a SQLite transaction, a file write, or after the end.
                let delay = Double.random(in: 0.02...0.6, using: &random)
                _ = try StorekeepProcess.runAndKill(["sync", peers.store(peer), "--container", peers.container], after: delay)
            }
        }
        #expect(try peers.syncUntilQuiet() <= 4)
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "seed \(seed): \(digests)")
        for name in peers.names {
            let check = try StorekeepProcess.run(["check", peers.store(name), "--json"])
            // The speeches have no type (the model requires one): only those findings are expected.
            #expect(check.status <= 2, "seed \(seed), \(name): \(check.stdout)")
            for prefix in ["\"sync.", "\"history.", "\"blob.", "\"sqlite."] {
                #expect(!check.stdout.contains(prefix), "seed \(seed), \(name): \(check.stdout)")
            }
        }
        #expect(killed > 0, "seed \(seed): no sync was killed part-way; the schedule tests nothing of resuming")
    }

    /// Runs `sync` on `peer` with `STOREKEEP_CRASH_AFTER=point`; whether it was killed there (a
    /// sync with fewer crash points to pass finishes normally, and must then succeed).
    private func syncKilled(_ peers: SyncPeers, _ peer: String, atCrashPoint point: Int) throws -> Bool {
        let result = try StorekeepProcess.run(["sync", peers.store(peer), "--container", peers.container],
                                              environment: ["STOREKEEP_CRASH_AFTER": String(point)], timeout: 120)
        if result.status == SIGKILL, result.stderr.isEmpty { return true }
        #expect(result.status == 0, "\(result)")
        return false
    }
}

/// SplitMix64, for reproducible schedules.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
