import Foundation
import Testing

/// Peers driven through the real binary (`apply`, `sync`) in seeded random schedules, with syncs
/// SIGKILLed at random moments; synced until quiet, every peer has the same digest and `check`
/// finds the sync counters in order.
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
        var killed = 0
        for _ in 0..<14 {
            let peer = peers.names[Int.random(in: 0..<3, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
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
            default:
                let delay = Double.random(in: 0.02...0.6, using: &random)
                if try StorekeepProcess.runAndKill(["sync", peers.store(peer), "--container", peers.container], after: delay) { killed += 1 }
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
