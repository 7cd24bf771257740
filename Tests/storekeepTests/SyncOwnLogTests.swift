import Foundation
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

    @Test("this peer's own damaged log that another peer still needs is written again, and that peer gets its content")
    func ownDamagedLogIsRewritten() throws {
        let peers = try SyncPeers.exchanging(rounds: 1)
        defer { peers.directory.remove() }
        #expect(try peers.apply("A", [SpeechLines.speech("late", title: "after the exchange")]).status == 0)
        #expect(try peers.sync("A").status == 0)
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
    }
}
