import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// storekeep's own sync tables of a store written around storekeep: a value of another kind (text
/// where a sequence number belongs, a blob that is not UTF-8 where a name belongs) is a typed
/// `damaged` error naming the table, the row and the column, never a crash and never read as 0.
@Suite struct DamagedSyncTableTests {
    private func store() throws -> (SyncStore, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("d.store"), model: TestModels.workspace(), contentName: "Damage", peerID: "local")
        try store.save(author: "app") { tx in
            let tag = try tx.insert("Tag", values: ["name": .string("t")])
            let note = try tx.insert("Note", values: ["title": .string("n")])
            try tx.setToMany("tags", of: note, to: [tag])
        }
        return (store, folder)
    }

    @Test("a metadata value that is a blob, not UTF-8 text")
    func metadataBlob() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_metadata SET value = X'FF00FE' WHERE key = 'syncEnabled'")
        expectDamaged("syncStatus", naming: ["sk_metadata", "syncEnabled", "not UTF-8"]) { _ = try store.syncStatus() }
    }

    @Test("a watermark that is text: refused, not read as 0 (which would import everything again)")
    func watermarkText() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "INSERT INTO sk_peer (peer, is_local, first_seen, last_seq, exported_seq) VALUES ('p2', 0, 0, 'abc', 0)")
        expectDamaged("syncStatus", naming: ["sk_peer", "peer p2", "last_seq", "'abc'"]) { _ = try store.syncStatus() }
        expectDamaged("importWatermarks", naming: ["sk_peer", "p2", "last_seq"]) { _ = try store.importWatermarks() }
    }

    @Test("the local sequence counter as text: a save is refused rather than numbered from 0")
    func localCounterText() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_peer SET last_seq = 'abc' WHERE peer = 'local'")
        expectDamaged("save", naming: ["sk_peer", "peer local", "last_seq"]) {
            try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string("u")]) }
        }
        expectDamaged("syncStatus", naming: ["last_seq"]) { _ = try store.syncStatus() }
    }

    @Test("the stored clock as text: a save is refused rather than clocked from 0")
    func clockText() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_metadata SET value = 'soon' WHERE key = 'clock'")
        expectDamaged("save", naming: ["sk_metadata", "clock", "'soon'"]) {
            try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string("u")]) }
        }
    }

    @Test("history rows an export reads: entity as a blob that is not UTF-8, a clock and a time as text")
    func historyValues() throws {
        for (sql, words) in [
            ("UPDATE sk_change SET entity = X'54FF'", ["sk_change", "entity", "not UTF-8"]),
            ("UPDATE sk_transaction SET hlc = 'late'", ["sk_transaction", "hlc", "'late'"]),
            ("UPDATE sk_transaction SET timestamp = X'00'", ["sk_transaction", "timestamp"]),
        ] {
            let (store, folder) = try store()
            defer { withExtendedLifetime(folder) {} }
            try writeAround(store, sql)
            expectDamaged(sql, naming: words) { _ = try store.exportTransactions(after: 0, into: TransactionLogEncoder(), maxChanges: .max) }
        }
    }

    @Test("a sequence number as text: the history's summary and the next save refuse it")
    func sequenceText() throws {
        let (store, folder) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_transaction SET seq = 'one'")
        expectDamaged("historySummary", naming: ["sk_transaction", "'one'"]) { _ = try store.historySummary() }
        expectDamaged("save", naming: ["sk_transaction", "'one'"]) {
            try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string("u")]) }
        }
    }

    @Test("clock rows a baseline reads: a rank as text (of a record it exports), a tombstone's clock as a blob")
    func clockRows() throws {
        for (sql, words) in [
            ("INSERT INTO sk_clock (gid, property, rank, hlc, peer) SELECT gid, 'name', 'high', 1, 'p' FROM sk_change LIMIT 1",
             ["sk_clock", "rank", "'high'"]),
            ("INSERT INTO sk_tombstone (gid, entity, hlc, peer) VALUES ('g', 'Tag', X'01', 'p')", ["sk_tombstone", "hlc"]),
            ("INSERT INTO sk_member_clock (relationship, owner, target, present, rank, hlc, peer) VALUES ('j_Item_tags', 'o', 't', 'yes', 1, 1, 'p')",
             ["sk_member_clock", "present", "'yes'"]),
        ] {
            let (store, folder) = try store()
            defer { withExtendedLifetime(folder) {} }
            try writeAround(store, sql)
            expectDamaged(sql, naming: words) { _ = try store.exportBaseline(into: BaselineEncoder()) }
        }
    }
}
