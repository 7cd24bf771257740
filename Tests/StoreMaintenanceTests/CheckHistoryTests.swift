import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// History continuity and the peer table.
@Suite("check: history")
struct CheckHistoryTests {
    @Test("a gap in a peer's sequence numbers is reported with the missing range")
    func gap() throws {
        let shop = try CheckFixture()
        let store = try shop.open()
        for index in 0..<3 { try store.save(author: "app") { tx in _ = try tx.insert("Tag", values: ["name": .string("t\(index)")]) } }
        #expect(shop.findings(.historySequenceGap).isEmpty)
        try shop.sql("DELETE FROM sk_change WHERE tx IN (SELECT id FROM sk_transaction WHERE seq IN (3, 4)); DELETE FROM sk_transaction WHERE seq IN (3, 4)")
        let found = shop.findings(.historySequenceGap)
        #expect(found.count == 1)
        #expect(found.first?.peer == "peer-A")
        #expect(found.first?.missingSequences == [SequenceRange(first: 3, last: 4)])
        #expect(shop.findings(.historyOrphanChange).isEmpty)
    }

    @Test("changes of a transaction that does not exist")
    func orphanChanges() throws {
        let shop = try CheckFixture()
        try shop.sql("INSERT INTO sk_change (tx, entity, gid, kind, properties) VALUES (999, 'Tag', 'G1', 'insert', '[]'), (999, 'Tag', 'G2', 'update', '[]')")
        let found = shop.findings(.historyOrphanChange)
        #expect(found.count == 1)
        #expect(found.first?.transaction == 999)
        #expect(found.first?.count == 2)
        #expect(found.first?.globalIDs == ["G1", "G2"])
    }

    @Test("insert runs of a transaction that does not exist, and records naming a run that does not exist")
    func orphanAndUnknownInsertRuns() throws {
        let shop = try CheckFixture()
        #expect(shop.findings(.historyUnknownInsertRun).isEmpty)
        try shop.sql("""
            INSERT INTO sk_insert_run (id, tx, entity, properties, first_rowid, last_rowid, records) VALUES (70, 999, 'Tag', '["name"]', 1, 1, 1);
            UPDATE e_Tag SET _insert_run = 70;
            UPDATE e_Passport SET _insert_run = 71;
            """)
        let orphans = shop.findings(.historyOrphanChange)
        #expect(orphans.count == 1)
        #expect(orphans.first?.transaction == 999)
        #expect(orphans.first?.count == 1)
        let unknown = shop.findings(.historyUnknownInsertRun)
        #expect(unknown.map(\.table) == ["e_Passport"], "only the run that does not exist")
        #expect(unknown.first?.globalIDs.isEmpty == false)
        #expect(unknown.first?.count == unknown.first?.globalIDs.count)
    }

    @Test("transactions of a peer sk_peer does not list are a warning; a missing local peer a violation")
    func peers() throws {
        let shop = try CheckFixture()
        try shop.sql("INSERT INTO sk_transaction (peer, seq, author, timestamp) VALUES ('peer-B', 1, 'sync', 0)")
        var report = shop.check()
        let unknown = report.findings.filter { $0.code == .historyUnknownPeer }
        #expect(unknown.map(\.peer) == ["peer-B"])
        #expect(unknown.first?.severity == .warning)
        #expect(report.status == .warnings)
        try shop.sql("INSERT INTO sk_peer (peer, is_local, first_seen, last_seq) VALUES ('peer-B', 0, 0, 1)")
        #expect(shop.check().status == .ok)
        try shop.sql("UPDATE sk_peer SET is_local = 0 WHERE peer = 'peer-A'")
        report = shop.check()
        #expect(report.findings.map(\.code) == [.peerLocalMissing])
        #expect(report.status == .violations)
    }

    @Test("the sync counters: behind, ahead, a watermark off, an unexported transaction missing; repair realigns what it can")
    func syncCounters() throws {
        let shop = try CheckFixture()
        #expect(shop.check().status == .ok)
        let local = "peer-A"
        try shop.sql("UPDATE sk_peer SET last_seq = 0 WHERE peer = '\(local)'")
        try shop.sql("INSERT INTO sk_transaction (peer, seq, author, timestamp) VALUES ('peer-B', 1, 'b', 0), ('peer-B', 2, 'b', 0)")
        try shop.sql("INSERT INTO sk_peer (peer, is_local, first_seen, last_seq) VALUES ('peer-B', 0, 0, 5)")
        var report = shop.check()
        #expect(report.findings.map(\.code).filter { $0.rawValue.hasPrefix("sync.") } == [.syncCounterBehind, .syncWatermarkMismatch])
        let repair = try StoreRepairer(path: shop.path, options: RepairOptions(backup: false)).run()
        #expect(repair.plan.fixes.filter { $0.action == .realignSyncCounters }.count == 1)
        report = shop.check()
        #expect(report.findings.filter { $0.code.rawValue.hasPrefix("sync.") }.isEmpty, "\(report.findings)")
        let watermark = try DatabaseQueue(path: shop.path).read { try Int.fetchOne($0, sql: "SELECT last_seq FROM sk_peer WHERE peer = 'peer-B'") }
        #expect(watermark == 2)

        try shop.sql("UPDATE sk_peer SET exported_seq = 99 WHERE peer = '\(local)'")
        #expect(shop.check().findings.map(\.code).contains(.syncExportedAhead))
        try shop.sql("UPDATE sk_peer SET exported_seq = 0, last_seq = last_seq + 3 WHERE peer = '\(local)'")
        let missing = shop.check().findings.first { $0.code == .syncUnexportedMissing }
        #expect(missing?.count == 3)
    }
}
