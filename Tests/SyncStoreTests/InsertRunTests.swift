import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// A bulk import's history as insert runs (format 3): one `sk_insert_run` row per entity and set
/// of properties instead of a change row per record, read back as the same insert changes.
@Suite struct InsertRunTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
    }

    private func count(_ sql: String) throws -> Int {
        try DatabaseQueue(path: store.path).read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    /// Tasks, half with a project (so two sets of properties), and tags.
    private func importBatch(_ tasks: Int, tags: Int = 0, position: Int64 = 0) throws -> [ImportRecord] {
        let records = (0..<tasks).map {
            ImportRecord(entity: "Task", globalID: GlobalID("t\(position)-\($0)"), values: ["title": .string("t\($0)")],
                         toOne: $0.isMultiple(of: 2) ? ["project": GlobalID("p")] : [:])
        } + (0..<tags).map { ImportRecord(entity: "Tag", globalID: GlobalID("g\(position)-\($0)"), values: ["name": .string("g\($0)")]) }
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "storekeep.migrate")
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: position, rows: records.count, rejected: 0), checked: true)
        return records
    }

    @Test func aBatchWritesRunsNotAChangeRowPerRecordAndReadsBackAsInserts() throws {
        let records = try importBatch(40, tags: 3)
        #expect(try count("SELECT COUNT(*) FROM sk_change") == 0)
        #expect(try count("SELECT COUNT(*) FROM sk_insert_run") == 3, "tasks with a project, tasks without, tags")
        #expect(try count("SELECT SUM(records) FROM sk_insert_run") == 43)
        let history = try store.transactions()
        #expect(history.count == 1)
        #expect(history[0].author == "storekeep.migrate")
        #expect(Set(history[0].changes.map(\.globalID)) == Set(records.map(\.globalID)))
        #expect(history[0].changes.count == records.count)
        for change in history[0].changes {
            #expect(change.kind == .insert)
            let record = try #require(records.first { $0.globalID == change.globalID })
            #expect(change.entity == record.entity)
            let expected = record.entity == "Tag" ? ["name"] : record.toOne.isEmpty ? ["done", "priority", "title"] : ["done", "priority", "project", "title"]
            #expect(change.properties == expected, "\(change.globalID)")
        }
        let tasks = history[0].changes.filter { $0.entity == "Task" }.map(\.globalID)
        #expect(tasks == records.filter { $0.entity == "Task" }.map(\.globalID), "a table's inserts are listed in the order written")
        #expect(try store.historySummary().changes == 43)
    }

    @Test func aDeletedRecordKeepsItsInsertInTheRunsTransaction() throws {
        let records = try importBatch(6)
        let gone = records[3].globalID  // no project: "p" is not in the store
        try store.save(author: "app") { try $0.delete(gone) }
        let history = try store.transactions()
        #expect(history.count == 2)
        #expect(history[0].changes.filter { $0.globalID == gone }.map(\.kind) == [.insert], "listed once, from sk_change now")
        #expect(history[0].changes.count == 6)
        #expect(history[1].changes.map(\.kind) == [.delete])
        #expect(try count("SELECT SUM(records) FROM sk_insert_run") == 5)
        #expect(try store.historySummary().changes == 7)
    }

    /// SQLite gives a new row the largest row id plus one, so a record saved after the last
    /// bulk-imported one is deleted takes its row id, inside the run's span: the run must not claim it.
    @Test func aRecordTakingAFreedRowIDInARunsSpanIsNotPartOfTheRun() throws {
        let records = try importBatch(4)
        try store.save(author: "app") { try $0.delete(records[3].globalID) }
        let newcomer = try store.save(author: "app") { tx in try tx.insert("Task", values: ["title": .string("new")]) }
        let reused = try DatabaseQueue(path: store.path).read { db in
            try Int64.fetchOne(db, sql: "SELECT _rowid FROM e_Item WHERE _gid = ?", arguments: [newcomer.rawValue])
        }
        let span = try DatabaseQueue(path: store.path).read { db in try Int64.fetchOne(db, sql: "SELECT MAX(last_rowid) FROM sk_insert_run") }
        #expect(reused != nil && reused == span, "the freed row id is taken again (the case this test is about)")
        let history = try store.transactions()
        #expect(history[0].changes.map(\.globalID) == records.map(\.globalID), "the run's transaction lists exactly its own records")
        #expect(history[2].changes.map(\.globalID) == [newcomer])
        #expect(try store.historySummary().changes == 4 + 1 + 1)
    }

    /// Repair and de-duplication never take a bulk-imported record for the user's because its
    /// update time is set: the run holds its insert.
    @Test func aBulkImportedRecordUpdatedByTheToolIsNotTheUsers() throws {
        let records = try importBatch(2)
        try store.save(author: "storekeep.repair") { try $0.update(records[0].globalID, values: ["title": .string("fixed")]) }
        try store.save(author: "app") { try $0.update(records[1].globalID, values: ["title": .string("mine")]) }
        #expect(try store.userModifiedRecords(among: records.map(\.globalID)) == [records[1].globalID])
    }

    /// A store of format 2 keeps its change rows; opened for writing it gains the column and the
    /// table, and a later import's runs read back beside the old rows.
    @Test func aFormatTwoStoreIsUpgradedAndItsHistoryReadsAsBefore() throws {
        let old = try store.save(author: "app") { tx in try tx.insert("Tag", values: ["name": .string("old")]) }
        let path = store.path
        try DatabaseQueue(path: path).write { db in
            for table in ["e_Item", "e_Tag", "e_Project", "e_Owner", "e_Profile", "e_Folder", "e_Attachment", "e_Kinds"] where try db.tableExists(table) {
                try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN _insert_run")
            }
            try db.execute(sql: "DROP TABLE sk_insert_run; UPDATE sk_metadata SET value = '2' WHERE key = 'formatVersion'")
        }
        let readOnly = try SyncStore.open(at: path, readOnly: true)
        #expect(readOnly.metadata.formatVersion == 2)
        #expect(try readOnly.transactions().flatMap(\.changes).map(\.globalID) == [old])
        #expect(try readOnly.historySummary().changes == 1)
        #expect(try readOnly.userModifiedRecords(among: [old]).isEmpty)

        let upgraded = try SyncStore.open(at: path)
        #expect(upgraded.metadata.formatVersion == SyncStore.newestFormat)
        let load = try upgraded.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let tag = ImportRecord(entity: "Tag", globalID: GlobalID("new"), values: ["name": .string("new")])
        try load.importBatch([tag], checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 1, rejected: 0))
        #expect(try upgraded.transactions().map { $0.changes.map(\.globalID) } == [[old], [GlobalID("new")]])
        #expect(try upgraded.historySummary().changes == 2)
        #expect(try count("SELECT COUNT(*) FROM e_Tag WHERE _insert_run IS NULL") == 1, "the old record keeps its change row")
    }
}
