import Foundation
import SyncContainer
import Testing

/// What `sync` does with files in the log folders that are not what it wrote: a stranger is
/// reported and left alone by every peer, and a damaged log of this peer's own that another peer
/// still needs is moved aside and written again from the store.
@Suite("sync: strangers and own damaged logs")
struct SyncOwnLogTests {
    private func codes(_ result: ProcessResult) throws -> [String] {
        (try result.jsonObject()["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test("a file that is not a log name is log.stranger for its own peer and for the others, and stays")
    func strangerIsLeftAlone() throws {
        let peers = try SyncPeers.exchanging(rounds: 1)
        defer { peers.directory.remove() }
        let stranger = try peers.logFolder("A").appendingPathComponent("notes.txt")
        try Data("a user's note".utf8).write(to: stranger)
        let own = try peers.sync("A", ["--json"])
        let ownCodes = try codes(own)
        #expect(own.status == 0 && ownCodes.contains("log.stranger"), "\(own)")
        let other = try peers.sync("B", ["--json"])
        let otherCodes = try codes(other)
        #expect(other.status == 0 && otherCodes.contains("log.stranger"), "\(other)")
        #expect(try Data(contentsOf: stranger) == Data("a user's note".utf8))
    }

    /// Two peers after an exchange, then a change of A's exported in a log that B has not imported.
    private func peersWithALogBStillNeeds() throws -> SyncPeers {
        let peers = try SyncPeers.exchanging(rounds: 1)
        #expect(try peers.apply("A", [SpeechLines.speech("late", title: "after the exchange")]).status == 0)
        #expect(try peers.sync("A").status == 0)
        return peers
    }

    /// Flips a byte of A's newest log in place and syncs A, which must write the log again so that
    /// B gets its content; returns that sync.
    private func damageNewestLogOfA(_ peers: SyncPeers) throws -> ProcessResult {
        let newest = try #require(try peers.logs("A").last)
        var bytes = try Data(contentsOf: newest)
        bytes[bytes.count - 3] ^= 0xFF
        try bytes.write(to: newest)
        let again = try peers.sync("A", ["--json"])
        let againCodes = try codes(again)
        #expect(again.status == 0 && againCodes.contains("log.rewritten"), "\(again)")
        #expect(try Data(contentsOf: newest) != bytes, "the log was written again")
        #expect(try peers.sync("B").status == 0)
        #expect(try peers.digest("A") == peers.digest("B"))
        return again
    }

    @Test("this peer's own damaged log that another peer still needs is written again, and that peer gets its content")
    func ownDamagedLogIsRewritten() throws {
        let peers = try peersWithALogBStillNeeds()
        defer { peers.directory.remove() }
        _ = try damageNewestLogOfA(peers)
    }

    @Test("an own log another peer needs is read whole once; while unchanged it is not read again; damaged in place after that, it is read, found and written again")
    func ownLogFoundSoundIsNotReadAgainUntilItChanges() throws {
        let peers = try peersWithALogBStillNeeds()
        defer { peers.directory.remove() }
        func counts(_ result: ProcessResult) throws -> (read: Int, unchanged: Int) {
            let json = try result.jsonObject()
            return (json["ownLogsRead"] as? Int ?? -1, json["ownLogsUnchanged"] as? Int ?? -1)
        }
        let first = try peers.sync("A", ["--json"])
        #expect(first.status == 0)
        let firstCounts = try counts(first)
        #expect(firstCounts.read == 1 && firstCounts.unchanged == 0, "\(first)")
        let second = try peers.sync("A", ["--json"])
        #expect(second.status == 0)
        let secondCounts = try counts(second)
        // Where the file system's inodes and change times are not trusted, every run reads it.
        let newest = try #require(try peers.logs("A").last)
        if FolderStorage().fileIdentity(newest.path) != nil {
            #expect(secondCounts.read == 0 && secondCounts.unchanged == 1, "\(second)")
        } else {
            #expect(secondCounts.read == 1 && secondCounts.unchanged == 0, "\(second)")
        }

        let damaged = try damageNewestLogOfA(peers)
        let damagedCounts = try counts(damaged)
        #expect(damagedCounts.read == 1 && damagedCounts.unchanged == 0, "\(damaged)")
    }
}
