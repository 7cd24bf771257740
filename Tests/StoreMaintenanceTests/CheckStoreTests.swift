import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// The store as a whole: what cannot be checked, metadata, SQLite integrity, reading beside a
/// writer, writing nothing, and several stores at once.
@Suite("check: the store as a whole")
struct CheckStoreTests {
    @Test("a missing file, a file that is not SQLite, a SQLite file that is not a store, and a newer format cannot be checked")
    func cannotCheck() throws {
        let shop = try CheckFixture()
        let checker = StoreChecker()
        let missing = checker.check(storeAt: shop.folder.appendingPathComponent("none.store").path)
        #expect(missing.status == .failed)
        #expect(missing.error?.kind == .missingInput)
        let text = shop.folder.appendingPathComponent("notes.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        #expect(checker.check(storeAt: text).error?.kind == .badInput)
        let plain = shop.folder.appendingPathComponent("plain.sqlite").path
        let queue = try DatabaseQueue(path: plain)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        let foreign = checker.check(storeAt: plain)
        #expect(foreign.status == .failed)
        #expect(foreign.error?.message.contains("not a storekeep store") == true)
        #expect(!FileManager.default.fileExists(atPath: plain + "-wal"), "a refused file gets no -wal either")
        let future = SyncStore.newestFormat + 1
        try shop.sql("UPDATE sk_metadata SET value = '\(future)' WHERE key = 'formatVersion'")
        let newer = shop.check()
        #expect(newer.status == .failed)
        #expect(newer.error?.message.contains("format \(future)") == true)
    }

    @Test("metadata: an unreadable format version, a missing model hash, a damaged model definition")
    func metadata() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE sk_metadata SET value = 'two' WHERE key = 'formatVersion'")
        #expect(shop.check().findings.map(\.code) == [.metadataFormatVersion])
        try shop.sql("UPDATE sk_metadata SET value = '2' WHERE key = 'formatVersion'; DELETE FROM sk_metadata WHERE key = 'modelHash'")
        let report = shop.check()
        #expect(Set(report.findings.map(\.code)) == [.metadataMissingKey, .metadataModelInconsistent])
        #expect(report.findings.first { $0.code == .metadataMissingKey }?.property == "modelHash")
        try shop.sql("UPDATE sk_model SET definition = '{'")
        let damaged = shop.check()
        #expect(damaged.findings.map(\.code).contains(.metadataModelUnreadable))
        #expect(damaged.modelVersion == nil)
    }

    @Test("a model given with --model must match; when it does, its validation rules are the ones checked")
    func givenModel() throws {
        let shop = try CheckFixture()
        var stricter = CheckFixture.model()
        stricter.entities[1].attributes[1].maxValueString = "15"  // price ≤ 15: outside the hash
        #expect(stricter.versionHash == CheckFixture.model().versionHash)
        let report = shop.check(model: stricter)
        #expect(report.findings.map(\.code) == [.recordValueOutOfRange])
        #expect(report.findings.first?.globalIDs == [shop["beta"]])
        var other = CheckFixture.model()
        other.versionName = "Shop 2"
        other.entities[0].attributes.append(.init(name: "rank", type: .integer16, isOptional: true))
        let mismatch = shop.check(model: other).findings.filter { $0.code == .metadataModelMismatch }
        #expect(mismatch.count == 1)
        #expect(mismatch.first?.message.contains("Category") == true)
    }

    @Test("sk_column disagreeing with the tables is a schema finding, and the property is left out")
    func schema() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE sk_column SET column_name = 'a_missing' WHERE entity = 'Tag' AND property = 'name'")
        let report = shop.check()
        #expect(report.findings.map(\.code) == [.schemaMismatch])
        #expect(report.findings.first?.entity == "Tag")
        #expect(report.findings.first?.property == "name")
    }

    @Test("a damaged page is reported by SQLite's own check")
    func integrity() throws {
        let shop = try CheckFixture()
        let queue = try DatabaseQueue(path: shop.path)
        let (pageSize, root) = try queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
             try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'e_Tag__gid'") ?? 0)
        }
        try queue.close()
        #expect(root > 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: shop.path))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        try handle.close()
        for depth in [CheckDepth.quick, .full] {
            let report = shop.check(depth)
            #expect(report.findings.contains { $0.code == .sqliteIntegrity }, "\(depth) \(String(describing: report.error))")
            #expect(report.status == .violations)
        }
    }

    @Test("the check writes nothing: files byte-identical and no -wal, -shm or other new file")
    func readOnly() throws {
        let shop = try CheckFixture()
        let before = try snapshot(shop.folder)
        _ = shop.check(.full)
        #expect(try snapshot(shop.folder) == before)
    }

    @Test("beside a writer holding an open write transaction, the check sees the last committed state")
    func besideAWriter() throws {
        let shop = try CheckFixture()
        let writer = try DatabaseQueue(path: shop.path)
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let gid = shop["beta"]
        DispatchQueue.global().async {
            try? writer.inTransaction(.immediate) { db in
                try db.execute(sql: "UPDATE e_Product SET a_title = NULL WHERE _gid = ?", arguments: [gid])
                entered.signal()
                release.wait()
                return .commit
            }
            done.signal()
        }
        entered.wait()
        let during = shop.check()
        release.signal()
        done.wait()
        try writer.close()
        #expect(during.status == .ok, "\(during.findings.map(\.message))")
        #expect(during.readMode == "snapshot")
        #expect(shop.findings(.recordRequiredAttribute).map(\.globalIDs) == [[gid]])
    }

    @Test("several stores in parallel come back in the order given, each with its own status")
    func parallel() throws {
        let clean = try CheckFixture(), broken = try CheckFixture()
        try broken.sql("UPDATE e_Product SET a_title = NULL")
        let paths = [broken.path, clean.path, clean.folder.appendingPathComponent("none.store").path, clean.path]
        let reports = StoreChecker().check(storesAt: paths, jobs: 3)
        #expect(reports.map(\.path) == paths)
        #expect(reports.map(\.status) == [.violations, .ok, .failed, .ok])
    }

    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                files[url.path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
