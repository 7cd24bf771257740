import Foundation
import GRDB
import ObjectModel
import Testing
@testable import StoreMaintenance
import SyncStore

/// `check` and `repair --dry-run` read stores written around storekeep: values of any kind in any
/// column (a text for a time, bytes that are not UTF-8 for a global ID) give findings or a typed
/// error, never a stopped process.
@Suite struct CheckDamagedValueTests {
    @Test func valuesOfTheWrongKindAreReadWithoutStoppingTheProcess() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try RepairModel.store(in: folder)
        for id in ["C-1", "C-2"] {
            try store.save(author: "storekeep.seed") { tx in
                try tx.insert("Category", id: GlobalID(id), values: ["name": .string("Work")], seed: SeedMark(set: "categories", version: 1))
            }
        }
        let (person, badge) = try store.save(author: "app") { tx in
            (try tx.insert("Person", values: ["name": .string("p")]), try tx.insert("Badge", values: ["number": .integer(1)]))
        }
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE e_Category SET _created = 'yesterday', _seed_version = 'new', _updated = X'00' WHERE _gid = 'C-1'")
            try db.execute(sql: "INSERT INTO e_Badge (_gid, _entity, _created, a_number, r_holder) VALUES (X'FFFE', 'Badge', 'then', 'x', ?)",
                           arguments: [person.rawValue])
            try db.execute(sql: "UPDATE e_Badge SET r_holder = ? WHERE _gid = ?", arguments: [person.rawValue, badge.rawValue])
            try db.execute(sql: "UPDATE sk_transaction SET author = X'FF' WHERE id = 1")
        }
        try queue.close()

        let report = StoreChecker(options: CheckOptions(depth: .full, findingLimit: nil)).check(storeAt: store.path)
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(report.findings.contains { $0.code == .seedDuplicate })
        #expect(report.findings.contains { $0.code == .relationshipSharedTarget })
        let planned = try StoreRepairer(path: store.path, options: RepairOptions(dryRun: true)).run()
        #expect(planned.plan.fixes.contains { $0.action == .mergeDuplicates })
    }
}
