import Foundation
import GRDB
import ObjectModel
import Testing
@testable import StoreMaintenance
import SyncStore

/// `check` on stores whose own tables (`sk_…`) hold what storekeep never writes there: each is a
/// `store.damagedValue` finding naming the table and column, where commands refuse the store.
@Suite struct CheckStoreTableValueTests {
    func damagedStore(_ statements: [String]) throws -> (URL, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-tables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try RepairModel.store(in: folder)
        try store.save(author: "app") { tx in _ = try tx.insert("Person", values: ["name": .string("p")]) }
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in for statement in statements { try db.execute(sql: statement) } }
        try queue.close()
        return (folder, store.path)
    }

    @Test("a value of another kind, text that is not UTF-8 and text holding a NUL are each one finding per column")
    func damagedValuesAreFindings() throws {
        let (folder, path) = try damagedStore([
            "UPDATE sk_metadata SET value = X'FF00' WHERE key = 'syncEnabled'",
            "INSERT INTO sk_peer (peer, is_local, first_seen, last_seq, exported_seq) VALUES ('p2', 0, 0, 'abc', 0), ('p3', 0, 0, 'def', 0)",
            "UPDATE sk_change SET entity = CAST(X'50FF' AS TEXT)",
            "UPDATE sk_transaction SET author = 'a' || char(0) || 'b'",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = StoreChecker(options: CheckOptions(depth: .quick, findingLimit: nil)).check(storeAt: path)
        #expect(report.error == nil, "\(String(describing: report.error))")
        let damaged = report.findings.filter { $0.code == .storeDamagedValue }
        #expect(Set(damaged.map { "\($0.table ?? "").\($0.column ?? "")" }) == ["sk_metadata.value", "sk_peer.last_seq", "sk_change.entity", "sk_transaction.author"])
        #expect(damaged.allSatisfy { $0.severity == .violation })
        let peer = try #require(damaged.first { $0.column == "last_seq" })
        #expect(peer.message.contains("the text 'abc' in 2 rows (the first: peer p2)"), "\(peer.message)")
        #expect(damaged.contains { $0.column == "entity" && $0.message.contains("not UTF-8") })
    }

    @Test("a clean store has no such finding")
    func cleanStoreHasNone() throws {
        let (folder, path) = try damagedStore([])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = StoreChecker(options: CheckOptions(depth: .quick, findingLimit: nil)).check(storeAt: path)
        #expect(!report.findings.contains { $0.code == .storeDamagedValue }, "\(report.findings)")
    }

    @Test("a model definition holding a name with a NUL is unreadable, not a SQL error")
    func storedModelWithNul() throws {
        let (folder, path) = try damagedStore([
            #"UPDATE sk_model SET definition = replace(definition, '"name":"Person"', '"name":"Per\u0000son"')"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = StoreChecker(options: CheckOptions(depth: .quick, findingLimit: nil)).check(storeAt: path)
        #expect(report.findings.contains { $0.code == .metadataModelUnreadable && $0.message.contains("Per\\0son") }, "\(report.findings)")
        #expect(!report.findings.contains { $0.code == .sqliteIntegrity }, "\(report.findings)")
    }

    @Test("a string literal holding a NUL or a quote reads back exactly in SQLite")
    func literalsCarryEveryCharacter() throws {
        let queue = try DatabaseQueue()
        for text in ["plain", "it's", "a\u{0}b", "\u{0}", "x'\u{0}'y", ""] {
            let bytes = try queue.read { db in try Data.fetchOne(db, sql: "SELECT CAST(\(text.quotedSQLLiteral) AS BLOB)") }
            #expect(bytes == Data(text.utf8), "\(text.debugDescription)")
        }
    }
}
