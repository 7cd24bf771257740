import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct ImportAndUpgradeTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
    }

    @Test func aBatchWritesRecordsHistoryAndCheckpointTogether() throws {
        let load = try store.beginBulkLoad(key: "k1", version: "v", description: "test", source: "src", checksum: "c", author: "storekeep.migrate")
        let project = ImportRecord(entity: "Project", globalID: GlobalID("p"), values: ["name": .string("P")])
        let tasks = (0..<3).map {
            ImportRecord(entity: "Task", globalID: GlobalID("t\($0)"), values: ["title": .string("t\($0)")],
                         toOne: ["project": GlobalID("p")], toOneOrder: ["project": Int64(2 - $0)])
        }
        let tag = ImportRecord(entity: "Tag", globalID: GlobalID("red"), values: ["name": .string("red")],
                               toMany: ["items": [GlobalID("t2"), GlobalID("t0")]])
        try load.importBatch([project] + tasks + [tag], checkpoint: MigrationCheckpoint(stream: "all", position: 5, rows: 5, rejected: 1))
        #expect(try store.related("tasks", of: GlobalID("p")) == [GlobalID("t2"), GlobalID("t1"), GlobalID("t0")])
        #expect(Set(try store.related("tags", of: GlobalID("t0"))) == [GlobalID("red")])
        #expect(try store.record(GlobalID("t1"))?.values["done"] == .boolean(false), "model defaults apply")
        #expect(try store.checkpoints(migration: load.run.id)["all"] == MigrationCheckpoint(stream: "all", position: 5, rows: 5, rejected: 1))
        let history = try store.transactions()
        #expect(history.count == 1)
        #expect(history[0].author == "storekeep.migrate")
        #expect(history[0].changes.count == 5)
        #expect(history[0].changes.allSatisfy { $0.kind == .insert })
        let migration = try #require(try store.migrations().first)
        #expect(migration.rows == 5)
        #expect(migration.rejected == 1)
        #expect(migration.finished == nil)
        #expect(try store.beginBulkLoad(key: "k1", version: "v", description: "test", source: "src", checksum: "c", author: "m").run.id == load.run.id,
                "an unfinished run with the same key resumes")
        try load.finish(success: true)
        #expect(try store.migrations().first?.success == true)
        #expect(try store.beginBulkLoad(key: "k1", version: "v", description: "test", source: "src", checksum: "c", author: "m").run.id != load.run.id)
    }

    @Test func aFailingBatchLeavesNeitherRecordsNorCheckpoint() throws {
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let good = ImportRecord(entity: "Tag", globalID: GlobalID("a"), values: ["name": .string("a")])
        let duplicate = ImportRecord(entity: "Tag", globalID: GlobalID("a"), values: ["name": .string("b")])
        let error = try #require(throws: StoreError.self) {
            try load.importBatch([good, duplicate], checkpoint: MigrationCheckpoint(stream: "s", position: 2, rows: 2, rejected: 0))
        }
        #expect(error.description.contains("already exists"))
        #expect(try store.liveRecordCounts()["Tag"] == 0)
        #expect(try store.checkpoints(migration: load.run.id).isEmpty)
        #expect(try store.historySummary().transactions == 0)
    }

    @Test func problemsAreNamedBeforeWriting() throws {
        #expect(store.problem(with: ImportRecord(entity: "Item", globalID: GlobalID("x"))) == "entity Item is abstract")
        #expect(store.problem(with: ImportRecord(entity: "Task", globalID: GlobalID("x"), values: ["priority": .string("high")]))?
            .contains("cannot hold a string") == true)
        #expect(store.problem(with: ImportRecord(entity: "Tag", globalID: GlobalID("x"), toOne: ["items": GlobalID("y")])) != nil)
        #expect(store.problem(with: ImportRecord(entity: "Tag", globalID: GlobalID("x"), values: ["name": .string("ok")])) == nil)
    }

    @Test func aFormatOneStoreIsUpgradedWhenOpenedForWriting() throws {
        let path = store.path
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DROP TABLE sk_migration; DROP TABLE sk_checkpoint; UPDATE sk_metadata SET value = '1' WHERE key = 'formatVersion'")
        }
        let readOnly = try SyncStore.open(at: path, readOnly: true)
        #expect(readOnly.metadata.formatVersion == 1)
        #expect(try readOnly.migrations().isEmpty)
        let writable = try SyncStore.open(at: path)
        #expect(writable.metadata.formatVersion == StoreSchema.formatVersion)
        _ = try writable.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        #expect(try SyncStore.open(at: path, readOnly: true).metadata.formatVersion == StoreSchema.formatVersion)
    }
}

@Suite struct RecordDigestSumTests {
    @Test func sumIsOrderIndependentAndRoundTripsThroughHex() {
        var a = RecordDigestSum()
        var b = RecordDigestSum()
        for line in ["x", "y", "z"] { a.add(line: line) }
        for line in ["z", "x", "y"] { b.add(line: line) }
        #expect(a == b)
        #expect(RecordDigestSum(hex: a.description) == a)
        var c = RecordDigestSum()
        c.add(line: "x")
        #expect(c != a)
        var d = RecordDigestSum()
        d.add(c)
        #expect(d == c)
    }

    @Test func carriesPropagateAcrossWords() {
        var sum = RecordDigestSum(hex: "0000000000000000ffffffffffffffffffffffffffffffffffffffffffffffff")!
        sum.add(digest: [UInt8](repeating: 0, count: 31) + [1])
        #expect(sum.description == "0000000000000001000000000000000000000000000000000000000000000000")
    }

    /// The `R` line is exactly the text docs/format.md describes, written from a record about to be
    /// imported and read back from the stored row: a change to either encoder changes every digest.
    @Test func theLineIsTheDocumentedTextOnBothSides() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("d.store"), model: TestModels.workspace(), contentName: "W")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let task = ImportRecord(entity: "Task", globalID: GlobalID("t"), values: ["title": .string("a"), "priority": .integer(3)],
                                toOne: ["project": GlobalID("p")])
        let kinds = ImportRecord(
            entity: "Kinds", globalID: GlobalID("k"),
            values: ["dbl": .double(2.5), "flag": .boolean(true), "i16": .integer(7), "str": .string("hé"),
                     "when": .date(Date(timeIntervalSince1970: 12.5))],
            seed: SeedMark(set: "s", version: 2))
        let taskLine = "R 1:t 1:- - createdBy=~ done=b0 priority=i3 title=s1:a project->1:p"
        let kindsLine = "R 1:k 1:s 2 bytes=~ dbl=d4004000000000000 dec=~ flag=b1 flt=~ i16=i7 i32=~ i64=~ link=~ str=s3:hé uid=~ when=t4029000000000000"
        #expect(store.digestLine(of: task) == taskLine)
        #expect(store.digestLine(of: kinds) == kindsLine)
        try load.importBatch([task, kinds], checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 2, rejected: 0))
        for (entity, line) in [("Task", taskLine), ("Kinds", kindsLine)] {
            var expected = RecordDigestSum()
            expected.add(line: line)
            #expect(try store.recordDigestSum(of: entity).sum == expected, "\(entity)")
        }
    }

    @Test func theLineOfAnImportedRecordIsTheLineReadBack() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("d.store"), model: TestModels.workspace(), contentName: "W")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let records = [
            ImportRecord(entity: "Task", globalID: GlobalID("t"), values: ["title": .string("a\u{0}b"), "priority": .integer(3)],
                         toOne: ["project": GlobalID("p")]),
            ImportRecord(entity: "Attachment", globalID: GlobalID("a"), values: ["data": .binary(Data(repeating: 3, count: 9000))]),
            ImportRecord(entity: "Kinds", globalID: GlobalID("k"), values: ["dbl": .integer(2), "when": .date(Date(timeIntervalSince1970: 12.5))],
                         seed: SeedMark(set: "s", version: 2)),
        ]
        var expected: [String: RecordDigestSum] = [:]
        for record in records { expected[record.entity, default: RecordDigestSum()].add(line: store.digestLine(of: record)) }
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 3, rejected: 0))
        for record in records {
            let (count, sum) = try store.recordDigestSum(of: record.entity)
            #expect(count == 1)
            #expect(sum == expected[record.entity], "\(record.entity)")
        }
    }
}
