import Foundation
import Testing

/// The multi-peer simulation through the real binary: five Speech Timer peers (one made by
/// `migrate` from a version-1 store, one more by migrating the same source on its own, three
/// joining empty as new devices) changed offline with `apply` (inserts, retitles, deletes,
/// relationship changes, seed and singleton duplicates), synced in seeded random orders, some
/// syncs SIGKILLed at a crash point the schedule chooses (`STOREKEEP_CRASH_AFTER`) or at a random
/// moment; synced until quiet, every peer has the same digest, no speech that nobody deleted is
/// lost, and no duplicate seed or singleton remains.
@Suite("sync kill schedules")
struct SyncKillTests {
    /// The peers: A and D migrated from the same version-1 store, B, C and E empty.
    private func peers() throws -> SyncPeers {
        let peers = try SyncPeers(["B", "C", "E"])
        let source = peers.directory.url.appendingPathComponent("v1.store").path
        #expect(try StorekeepProcess.run(["init", source, "--model", ModelFiles.speechTimer, "--model-version", "SpeechTimer 1",
                                          "--content-name", "SpeechTimer", "--peer-id", "V1"]).status == 0)
        let lines = [SpeechLines.type("M-T1", "Migrated")] + (0..<30).map { SpeechLines.speech("M-S\($0)", title: "migrated \($0)", type: "M-T1") }
        let file = try peers.directory.write(lines.joined(separator: "\n") + "\n", to: "v1.jsonl")
        #expect(try StorekeepProcess.run(["apply", source, file]).status == 0)
        for name in ["A", "D"] {
            let migrated = try StorekeepProcess.run(["migrate", source, "--to", peers.store(name), "--model", ModelFiles.speechTimer,
                                                     "--content-name", "SpeechTimer", "--peer-id", name])
            #expect(migrated.status == 0, "\(migrated)")
        }
        return SyncPeers(adding: ["A", "D"], to: peers)
    }

    /// What the schedule did: speeches inserted by a successful apply, and those it deleted.
    private struct Ledger {
        var inserted: [String] = (0..<30).map { "M-S\($0)" }
        var deleted = Set<String>()
        var next = 0
    }

    @Test("random edits and syncs of five peers, some killed, converge with nothing lost and no duplicates", arguments: [11, 12, 13] as [UInt64])
    func killedSyncsConverge(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let peers = try peers()
        defer { peers.directory.remove() }
        var ledger = Ledger()
        var killed = 0
        // Two devices seed and make the singleton offline before they ever sync.
        for peer in ["B", "C"] {
            #expect(try peers.apply(peer, [Self.keynoteLine, #"{"op":"insert","entity":"Settings","values":{"theme":"\#(peer)"}}"#]).status == 0)
        }
        // A's first sync publishes the migrated records: it always reaches a crash point.
        if try syncKilled(peers, "A", atCrashPoint: 2) { killed += 1 }
        for _ in 0..<22 {
            let peer = peers.names[Int.random(in: 0..<peers.names.count, using: &random)]
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1:
                var lines: [String] = []
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    ledger.next += 1
                    let id = "\(peer)-n\(ledger.next)"
                    lines.append(SpeechLines.speech(id, title: "t\(ledger.next)", type: Bool.random(using: &random) ? "M-T1" : nil))
                    ledger.inserted.append(id)
                }
                if try peers.apply(peer, lines).status != 0 { ledger.inserted.removeLast(lines.count) }
            case 2:
                // Edits of records this peer may not have yet fail as a whole: that is fine here.
                let target = ledger.inserted[Int.random(in: 0..<ledger.inserted.count, using: &random)]
                _ = try peers.apply(peer, [SpeechLines.retitle(target, "edited on \(peer)")])
            case 3:
                let target = ledger.inserted[Int.random(in: 0..<ledger.inserted.count, using: &random)]
                if try peers.apply(peer, [SpeechLines.delete(target)]).status == 0 { ledger.deleted.insert(target) }
            case 4:
                // A relationship change: a speech moves to another type, or out of one (to-many add/remove).
                let target = ledger.inserted[Int.random(in: 0..<ledger.inserted.count, using: &random)]
                let line = Bool.random(using: &random)
                    ? #"{"op":"update","record":"\#(target)","toOne":{"type":{"entity":"SpeechType","key":{"name":"Migrated"}}}}"#
                    : #"{"op":"remove","record":"M-T1","relationship":"speeches","members":["\#(target)"]}"#
                _ = try peers.apply(peer, [line])
            case 5:
                // Seed data made offline on several devices with random IDs (as older apps did), and
                // the singleton made on each: duplicates the import's fixes merge.
                _ = try peers.apply(peer, [Self.keynoteLine])
                _ = try peers.apply(peer, [#"{"op":"insert","entity":"Settings","values":{"theme":"\#(peer)"}}"#])
            case 6:
                if try syncKilled(peers, peer, atCrashPoint: Int.random(in: 1...14, using: &random)) { killed += 1 }
            case 7:
                // Wherever the moment falls: inside a SQLite transaction, a file write, or after the end.
                let delay = Double.random(in: 0.02...0.5, using: &random)
                if try StorekeepProcess.runAndKill(["sync", peers.store(peer), "--container", peers.container], after: delay) { killed += 1 }
            default:
                #expect(try peers.sync(peer).status == 0)
            }
        }
        #expect(try peers.syncUntilQuiet(maxRounds: 10) <= 6, "seed \(seed)")
        let digests = try peers.names.map { try peers.digest($0) }
        #expect(Set(digests).count == 1, "seed \(seed): \(digests)")
        // Nothing lost without a delete: every speech inserted and not deleted by the schedule is
        // on every peer, unless a recorded delete (a fix's) removed it.
        var tombstones = Set<String>()
        for name in peers.names {
            tombstones.formUnion(try peers.database(name).read { try String.fetchAll($0, sql: "SELECT gid FROM sk_tombstone") })
        }
        for name in peers.names {
            let present = Set(try peers.database(name).read { try String.fetchAll($0, sql: "SELECT _gid FROM e_Speech") })
            let lost = Set(ledger.inserted).subtracting(ledger.deleted).subtracting(tombstones).subtracting(present)
            #expect(lost.isEmpty, "seed \(seed), \(name): speeches lost: \(lost.sorted())")
            let check = try StorekeepProcess.run(["check", peers.store(name), "--json"])
            for code in ["singleton", "seed.", "\"sync.", "\"history.", "\"blob.", "\"sqlite."] {
                #expect(!check.stdout.contains(code), "seed \(seed), \(name): \(code) in \(check.stdout)")
            }
        }
        let keynotes = try peers.database("A").read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM e_SpeechType WHERE a_name = 'Keynote'") ?? 0 }
        let settings = try peers.database("A").read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM e_Settings") ?? 0 }
        #expect(keynotes == 1 && settings == 1, "seed \(seed): \(keynotes) Keynote types, \(settings) Settings")
        let fixers = try peers.names.map { name in
            try peers.database(name).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sk_transaction WHERE author = 'storekeep.import'") ?? 0 }
        }
        #expect(fixers.reduce(0, +) > 0, "seed \(seed): the duplicates were merged by the import's fixes")
        #expect(killed > 0, "seed \(seed): no sync was killed part-way; the schedule tests nothing of resuming")
    }

    /// A seed record made offline with a random ID, as older apps made them.
    static let keynoteLine = #"{"op":"insert","entity":"SpeechType","values":{"name":"Keynote","greenSeconds":300},"seed":{"set":"builtin","version":1}}"#

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
