import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// `exportRecords(of:afterRowID:limit:)`: what a store-to-store migration reads.
@Suite struct ExportTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func fill() throws -> (project: GlobalID, tasks: [GlobalID], note: GlobalID, tags: [GlobalID]) {
        try store.save(author: "t") { tx in
            let project = try tx.insert("Project", values: ["name": .string("P")])
            let tasks = try (0..<3).map { try tx.insert("Task", values: ["title": .string("t\($0)"), "priority": .integer(Int64($0))]) }
            try tx.setToMany("tasks", of: project, to: [tasks[2], tasks[0], tasks[1]])
            let note = try tx.insert("Note", values: ["title": .string("n"), "body": .null])
            let tags = try ["red", "blue"].map { try tx.insert("Tag", values: ["name": .string($0)]) }
            try tx.setToMany("tags", of: note, to: [tags[1], tags[0]])
            _ = try tx.insert("Attachment", values: ["data": .binary(Data(repeating: 7, count: 10_000))])
            _ = try tx.insert("SpeechType", values: ["name": .string("Toast")], seed: SeedMark(set: "builtin", version: 3))
            return (project, tasks, note, tags)
        }
    }

    @Test func recordsCarryOrderJoinMembersSeedMarksAndBlobs() throws {
        let filled = try fill()
        let tasks = try store.exportRecords(of: "Task", afterRowID: 0, limit: 100).map(\.record)
        #expect(tasks.count == 3)
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.globalID, $0) })
        #expect(byID[filled.tasks[2]]?.toOne["project"] == filled.project)
        #expect(byID[filled.tasks[2]]?.toOneOrder["project"] == 0)
        #expect(byID[filled.tasks[1]]?.toOneOrder["project"] == 2)
        let note = try #require(try store.exportRecords(of: "Note", afterRowID: 0, limit: 100).first?.record)
        #expect(note.toMany["tags"]?.count == 2)
        #expect(note.values["body"] == .null)
        let type = try #require(try store.exportRecords(of: "SpeechType", afterRowID: 0, limit: 100).first?.record)
        #expect(type.seed == SeedMark(set: "builtin", version: 3))
        let attachment = try #require(try store.exportRecords(of: "Attachment", afterRowID: 0, limit: 100).first?.record)
        #expect(attachment.values["data"] == .binary(Data(repeating: 7, count: 10_000)))
    }

    @Test func pagesFollowRowIDsAndExactEntities() throws {
        _ = try fill()
        let first = try store.exportRecords(of: "Task", afterRowID: 0, limit: 2)
        #expect(first.count == 2)
        let rest = try store.exportRecords(of: "Task", afterRowID: first[1].rowID, limit: 2)
        #expect(rest.count == 1)
        #expect(rest[0].rowID > first[1].rowID)
        #expect(try store.exportRecords(of: "Item", afterRowID: 0, limit: 10).isEmpty, "Item is abstract: no records of its own")
        #expect(throws: StoreError.self) { try store.exportRecords(of: "Nope", afterRowID: 0, limit: 10) }
    }

    @Test func importingEveryExportedRecordGivesTheSameContentDigest() throws {
        _ = try fill()
        let copy = try SyncStore.create(at: folder.path("copy.store"), model: TestModels.workspace(), contentName: "W")
        let load = try copy.beginBulkLoad(key: "k", version: "Workspace 1", description: "copy", source: store.path, checksum: "-", author: "t")
        for entity in store.model.entities where !entity.isAbstract {
            let records = try store.exportRecords(of: entity.name, afterRowID: 0, limit: 1000).map(\.record)
            try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: entity.name, position: 0, rows: records.count, rejected: 0))
        }
        #expect(try copy.contentDigest() == store.contentDigest())
    }

    @Test func aReadOnlyStoreOfFormatOneExports() throws {
        _ = try fill()
        let path = store.path
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DROP TABLE sk_migration; DROP TABLE sk_checkpoint; DROP TABLE sk_rejected; UPDATE sk_metadata SET value = '1' WHERE key = 'formatVersion'")
        }
        let old = try SyncStore.open(at: path, readOnly: true)
        #expect(old.metadata.formatVersion == 1)
        #expect(try old.exportRecords(of: "Task", afterRowID: 0, limit: 10).count == 3)
    }
}
