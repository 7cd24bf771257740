import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct RecordHistoryTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W", peerID: "peer-A")
    }

    private func rows(_ sql: String) throws -> [Row] {
        try DatabaseQueue(path: store.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            .read { db in try Row.fetchAll(db, sql: sql) }
    }

    @Test func insertRecordsOneTransactionWithDefaultsInTheChange() throws {
        let id = try store.save(author: "importer") { tx in
            try tx.insert("Task", values: ["title": .string("Write tests")])
        }
        let record = try #require(try store.record(id))
        #expect(record.entity == "Task")
        #expect(record.values["title"] == .string("Write tests"))
        #expect(record.values["done"] == .boolean(false))
        #expect(record.values["priority"] == .integer(0))
        #expect(record.values["createdBy"] == .null)
        #expect(record.values["scratch"] == nil)
        #expect(record.updatedAt == nil)
        #expect(record.seed == nil)

        let transactions = try rows("SELECT * FROM sk_transaction")
        #expect(transactions.count == 1)
        #expect(transactions[0]["peer"] as String == "peer-A")
        #expect(transactions[0]["seq"] as Int == 1)
        #expect(transactions[0]["author"] as String == "importer")
        let changes = try rows("SELECT * FROM sk_change")
        #expect(changes.count == 1)
        #expect(changes[0]["kind"] as String == "insert")
        #expect(changes[0]["entity"] as String == "Task")
        #expect(changes[0]["gid"] as String == id.rawValue)
        #expect(changes[0]["properties"] as String == #"["done","priority","title"]"#)
        #expect(changes[0]["tx"] as Int64 == transactions[0]["id"] as Int64)
    }

    @Test func updateAndDeleteAreNumberedTransactionsWithTheirChanges() throws {
        let id = try store.save(author: "a") { try $0.insert("Tag", values: ["name": .string("urgent")]) }
        try store.save(author: "b") { try $0.update(id, values: ["name": .string("URGENT")]) }
        #expect(try store.record(id)?.updatedAt != nil)
        try store.save(author: "c") { try $0.delete(id) }
        #expect(try store.record(id) == nil)

        let history = try store.transactions()
        #expect(history.map(\.sequence) == [1, 2, 3])
        #expect(history.map(\.author) == ["a", "b", "c"])
        #expect(history[1].changes == [HistoryChange(entity: "Tag", globalID: id, kind: .update, properties: ["name"])])
        let deletion = try #require(history[2].changes.first)
        #expect(deletion.kind == .delete)
        #expect(deletion.tombstone == ["name": .string("URGENT")])
        #expect(try store.historySummary() == HistorySummary(transactions: 3, changes: 3, localSequence: 3))
    }

    @Test func seedRecordsKeepTheirMarkAndTombstoneKeepsTheSeedKey() throws {
        let id = try store.save(author: "seed") { tx in
            try tx.insert("SpeechType", values: ["name": .string("Toast"), "greenSeconds": .integer(60)],
                          seed: SeedMark(set: "builtin", version: 2))
        }
        let record = try #require(try store.record(id))
        #expect(record.seed == SeedMark(set: "builtin", version: 2))
        #expect(record.values["greenSeconds"] == .double(60))
        try store.save(author: "user") { try $0.delete(id) }
        #expect(try store.transactions().last?.changes.first?.tombstone == ["name": .string("Toast")])
    }

    @Test func aSaveThatThrowsLeavesNothingBehind() throws {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.save(author: "x") { tx in
                try tx.insert("Tag", values: ["name": .string("a")])
                throw Stop()
            }
        }
        #expect(try store.liveRecordCounts()["Tag"] == 0)
        #expect(try store.historySummary().transactions == 0)
    }

    @Test func aSaveWithoutChangesRecordsNoTransaction() throws {
        try store.save(author: "x") { _ in }
        let id = try store.save(author: "x") { tx in
            let id = try tx.insert("Tag", values: ["name": .string("temp")])
            try tx.delete(id)
            return id
        }
        #expect(try store.record(id) == nil)
        #expect(try store.historySummary().transactions == 0)
    }

    @Test func insertThenUpdateInOneSaveIsOneInsertChange() throws {
        try store.save(author: "x") { tx in
            let id = try tx.insert("Tag", values: ["name": .string("a")])
            try tx.update(id, values: ["name": .string("b")])
        }
        let changes = try store.transactions().flatMap(\.changes)
        #expect(changes.map(\.kind) == [.insert])
    }

    @Test func wrongRequestsAreRefusedWithAMessage() throws {
        let id = try store.save(author: "a") { try $0.insert("Tag", values: ["name": .string("x")]) }
        let cases: [(String, (StoreTransaction) throws -> Void)] = [
            ("no entity named 'Nope'", { try $0.insert("Nope") }),
            ("abstract", { try $0.insert("Item") }),
            ("no attribute named 'colour'", { try $0.insert("Tag", values: ["colour": .string("red")]) }),
            ("cannot hold a string value", { try $0.insert("Task", values: ["priority": .string("high")]) }),
            ("transient", { try $0.insert("Task", values: ["scratch": .string("x")]) }),
            ("is a relationship", { try $0.insert("Task", values: ["project": .string("x")]) }),
            ("already exists", { try $0.insert("Tag", id: id) }),
            ("no record with global ID", { try $0.update(GlobalID("missing"), values: ["name": .string("y")]) }),
        ]
        for (expected, body) in cases {
            let error = try #require(throws: StoreError.self) { try store.save(author: "t", body) }
            #expect(error.reason == .invalidRequest)
            #expect(error.description.contains(expected), "\(error.description) should mention \(expected)")
        }
        #expect(try store.historySummary().transactions == 1)
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        let when = Date(timeIntervalSince1970: -1_234_567.25)
        let uuid = UUID()
        let values: [String: AttributeValue] = [
            "i16": .integer(-32768), "i32": .integer(2_147_483_647), "i64": .integer(Int64.min),
            "dec": .decimal("12345678901234567890.123456789"), "dbl": .double(3.25), "flt": .double(-0.5),
            "str": .string("héllo\u{0}world"), "flag": .boolean(true), "when": .date(when),
            "bytes": .binary(Data([0, 1, 2, 255])), "uid": .uuid(uuid), "link": .uri("https://example.com/a?b"),
        ]
        let id = try store.save(author: "t") { try $0.insert("Kinds", values: values) }
        let back = try #require(try store.record(id)).values
        for (name, value) in values { #expect(back[name] == value, "\(name)") }
        #expect(back == values)
    }

    @Test func inheritanceSharesOneTableAndCountsExactEntities() throws {
        try store.save(author: "t") { tx in
            try tx.insert("Note", values: ["title": .string("n1"), "body": .string("text")])
            try tx.insert("Note", values: ["title": .string("n2")])
            try tx.insert("Task", values: ["title": .string("t1")])
        }
        let counts = try store.liveRecordCounts()
        #expect(counts["Note"] == 2)
        #expect(counts["Task"] == 1)
        #expect(counts["Item"] == 0)
        #expect(counts["Tag"] == 0)
        #expect(try store.globalIDs(of: "Item").count == 3)
        #expect(try store.globalIDs(of: "Item", includingSubentities: false).isEmpty)
        #expect(try store.globalIDs(of: "Task").count == 1)
        let tables = try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'e_%' ORDER BY name").map { $0["name"] as String }
        #expect(tables.contains("e_Item"))
        #expect(!tables.contains("e_Note"))
        #expect(try rows("SELECT _entity FROM e_Item ORDER BY _entity").map { $0["_entity"] as String } == ["Note", "Note", "Task"])
    }
}
