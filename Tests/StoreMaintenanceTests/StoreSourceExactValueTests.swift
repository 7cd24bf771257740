import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// An older store holding what storekeep never writes (a fraction or a huge real in an integer
/// column, bytes that are not UTF-8 in a string column, a row of no entity): each such record is
/// rejected with its reason and counted, none is truncated or decoded with replacement characters,
/// and the run verifies.
@Suite struct StoreSourceExactValueTests {
    @Test("odd values of an older store are rejected, not truncated; a row of no entity is counted")
    func oddValuesAreRejected() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-exact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("v1.store").path
        let store = try SyncStore.create(at: source, model: StoreMigrationModels.version1(), contentName: "Library")
        try store.save(author: "t") { tx in
            for index in 0..<6 { _ = try tx.insert("Book", values: ["title": .string("b\(index)"), "pages": .integer(Int64(100 + index))]) }
        }
        let queue = try DatabaseQueue(path: source)
        try queue.write { db in
            let rows = try Int64.fetchAll(db, sql: "SELECT _rowid FROM e_Book ORDER BY _rowid")
            try db.execute(sql: "UPDATE e_Book SET a_pages = 1.5 WHERE _rowid = ?", arguments: [rows[1]])
            try db.execute(sql: "UPDATE e_Book SET a_pages = 1e30 WHERE _rowid = ?", arguments: [rows[2]])
            try db.execute(sql: "UPDATE e_Book SET a_title = X'41FF42' WHERE _rowid = ?", arguments: [rows[3]])
            try db.execute(sql: "UPDATE e_Book SET _entity = 'Ghost' WHERE _rowid = ?", arguments: [rows[4]])
        }
        try queue.close()

        let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2()],
                                 currentVersionName: "Library 2")
        let migration = try StoreMigrationSource(path: source, bundle: bundle, bundlePath: folder.appendingPathComponent("Library.xcdatamodeld").path)
        let target = folder.appendingPathComponent("v2.store").path
        let report = try Migrator(source: migration, target: target, options: MigrationOptions(onError: .skip)).run()
        #expect(report.outcome == .completed)
        #expect(report.verified)
        #expect(report.streams.reduce(0) { $0 + $1.written } == 2, "\(report.streams)")
        #expect(report.streams.reduce(0) { $0 + $1.rejected } == 4, "\(report.streams)")
        let reasons = try SyncStore.open(at: target, readOnly: true).rejections(migration: report.migrationID).map(\.reason)
        #expect(reasons.contains { $0.contains("Book.pages is of type Integer 32 and cannot hold a double value") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("Book.name is of type String and cannot hold a binary value") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("has _entity 'Ghost', which names no entity of model Library Library 1") }, "\(reasons)")
        let pages = try SyncStore.open(at: target, readOnly: true).globalIDs(of: "Book").compactMap { try SyncStore.open(at: target, readOnly: true).record($0)?.values["pages"] }
        #expect(Set(pages) == [.integer(100), .integer(105)], "no page count was truncated: \(pages)")
    }
}
