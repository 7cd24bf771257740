import Foundation
import GRDB
import ObjectModel
import Testing
@testable import StoreMaintenance
import SyncStore

/// Repair is linear in the number of findings: 100,000 dangling references are all fixed in one
/// run (a quadratic repair did not finish in ten minutes). Not a timed test: the time is measured
/// by `make bench` (docs/benchmarks.md); this one asserts that every finding was fixed.
@Suite struct RepairScaleTests {
    @Test func oneHundredThousandDanglingReferencesAreAllEmptied() throws {
        let count = 100_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repair-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try RepairModel.store(in: folder)
        let item = try store.save(author: "app") { try $0.insert("Item", values: ["title": .string("real")]) }
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            // Every note points at an item that does not exist, except every 1000th, which points at the real one.
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO e_Note (_gid, _entity, _created, a_text, r_item)
                SELECT printf('N-%08d', i), 'Note', 0, 'note', CASE WHEN i % 1000 = 0 THEN ? ELSE printf('GONE-%08d', i) END FROM n
                """, arguments: [count, item.rawValue])
        }
        try queue.close()
        let dangling = count - count / 1000

        let report = try StoreRepairer(path: store.path, options: RepairOptions(backup: false)).run()
        #expect(report.plan.fixes.count == dangling)
        #expect(report.plan.fixes.allSatisfy { $0.action == .nullifyReference && $0.code == .relationshipDanglingTarget })
        #expect(report.fixesApplied == dangling && report.skipped.isEmpty)
        #expect(report.remaining.isEmpty && report.plan.leftovers.isEmpty)

        let check = try DatabaseQueue(path: store.path)
        defer { try? check.close() }
        let (stillDangling, stillReal, updated) = try check.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM e_Note WHERE r_item IS NOT NULL AND r_item != ?", arguments: [item.rawValue]),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM e_Note WHERE r_item = ?", arguments: [item.rawValue]),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM e_Note WHERE _updated IS NOT NULL"))
        }
        #expect(stillDangling == 0 && stillReal == count / 1000 && updated == dangling)
        let last = try #require(try store.transactions().last)
        #expect(last.author == StoreRepairer.author)
        #expect(last.changes.count == dangling && last.changes.allSatisfy { $0.kind == .update && $0.properties == ["item"] })
    }
}
