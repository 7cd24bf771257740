import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// What `sync` reads to tell a store restored from a backup from its own published logs (the
/// stamps of its transactions, its counters, the clock a new peer ID starts after), from a store
/// written around storekeep: a typed `damaged` error naming the table, row and column; never a
/// crash (GRDB's typed subscripts stop the process, exit 132) and never a text read as 0.
@Suite struct PeerIdentityDamageTests {
    private func store() throws -> (SyncStore, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("p.store"), model: TestModels.workspace(), contentName: "Peers", peerID: "local")
        for name in ["a", "b"] {
            try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string(name)]) }
        }
        return (store, folder)
    }

    @Test("transaction stamps: a clock or a time as text, an author as a blob, a sequence number as a real",
          arguments: [
            ("UPDATE sk_transaction SET hlc = 'late' WHERE seq = 1", ["sk_transaction", "numbered 1", "hlc", "'late'"]),
            ("UPDATE sk_transaction SET timestamp = 'noon' WHERE seq = 1", ["sk_transaction", "numbered 1", "timestamp", "'noon'"]),
            ("UPDATE sk_transaction SET author = X'FF00' WHERE seq = 2", ["sk_transaction", "numbered 2", "author", "not UTF-8"]),
            ("UPDATE sk_transaction SET seq = 1.5 WHERE seq = 1", ["sk_transaction", "seq", "the real 1.5"]),
          ])
    func stamps(_ damage: (sql: String, words: [String])) throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, damage.sql)
        expectDamaged(damage.sql, naming: damage.words) { _ = try store.localTransactionStamps(from: 1, through: 2) }
    }

    @Test("a new peer ID: the issued counter as text is refused, not read as 0")
    func counterText() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_peer SET last_seq = 'abc' WHERE peer = 'local'")
        expectDamaged("continueUnderNewPeerID", naming: ["sk_peer", "peer local", "last_seq", "'abc'"]) {
            try store.continueUnderNewPeerID("fresh", sharedThrough: 1)
        }
        // Nothing was changed: the store still is peer `local`.
        let reopened = try SyncStore.open(at: store.path)
        #expect(reopened.metadata.peerID == "local")
    }

    @Test("a new peer ID: the clock of the last shared transaction as text, or its time as a blob")
    func boundaryClock() throws {
        for (sql, words) in [
            ("UPDATE sk_transaction SET hlc = 'late' WHERE seq = 1", ["sk_transaction", "peer local numbered 1", "hlc", "'late'"]),
            ("UPDATE sk_transaction SET hlc = NULL, timestamp = X'00' WHERE seq = 1", ["sk_transaction", "numbered 1", "timestamp"]),
        ] {
            let (store, folder) = try store()
            defer { withExtendedLifetime(folder) {} }
            try writeAround(store, sql)
            expectDamaged(sql, naming: words) { try store.continueUnderNewPeerID("fresh", sharedThrough: 1) }
        }
    }

    @Test("a clock at the largest reading: the next one is refused, not wrapped round to before every other")
    func clockAtTheEnd() throws {
        let last = HybridTimestamp(rawValue: .max)
        #expect(throws: (any Error).self) { _ = try HybridTimestamp.next(after: last, now: Date()) }
        let before = HybridTimestamp(rawValue: .max - 1)
        #expect(try HybridTimestamp.next(after: before, now: Date()) == last)
        #expect(HybridTimestamp(date: Date(timeIntervalSince1970: .nan)) == .zero)

        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_metadata SET value = ? WHERE key = 'clock'", [String(Int64.max)])
        expectDamaged("save", naming: ["largest a clock can hold"]) {
            try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string("c")]) }
        }
    }
}
