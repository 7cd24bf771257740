import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct RelationshipTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> GlobalID {
        try store.save(author: "t") { try $0.insert(entity, values: values) }
    }

    @Test func orderedOneToManyKeepsOrderAndBothSidesAgree() throws {
        let project = try insert("Project", ["name": .string("P")])
        let tasks = try (0..<4).map { try insert("Task", ["title": .string("t\($0)")]) }
        let wanted = [tasks[2], tasks[0], tasks[3]]
        try store.save(author: "t") { try $0.setToMany("tasks", of: project, to: wanted) }
        #expect(try store.related("tasks", of: project) == wanted)
        #expect(try store.related("project", of: tasks[2]) == [project])
        #expect(try store.record(tasks[1])?.toOne["project"] == nil)

        // Setting the to-one side appends to the ordered inverse.
        try store.save(author: "t") { try $0.setToOne("project", of: tasks[1], to: project) }
        #expect(try store.related("tasks", of: project) == wanted + [tasks[1]])

        // Reordering and removing through the to-many side.
        try store.save(author: "t") { try $0.setToMany("tasks", of: project, to: [tasks[1], tasks[2]]) }
        #expect(try store.related("tasks", of: project) == [tasks[1], tasks[2]])
        #expect(try store.record(tasks[0])?.toOne["project"] == nil)

        let last = try #require(try store.transactions().last)
        let byRecord = Dictionary(uniqueKeysWithValues: last.changes.map { ($0.globalID, $0.properties) })
        #expect(byRecord[project] == ["tasks"])
        #expect(byRecord[tasks[0]] == ["project"])
        #expect(byRecord[tasks[3]] == ["project"])
    }

    @Test func manyToManyIsVisibleFromBothSides() throws {
        let note = try insert("Note", ["title": .string("n")])
        let task = try insert("Task", ["title": .string("t")])
        let red = try insert("Tag", ["name": .string("red")])
        let blue = try insert("Tag", ["name": .string("blue")])
        try store.save(author: "t") { tx in
            try tx.setToMany("tags", of: note, to: [red, blue])
            try tx.setToMany("items", of: red, to: [note, task])
        }
        #expect(Set(try store.related("tags", of: note)) == [red, blue])
        #expect(try store.related("tags", of: task) == [red])
        #expect(Set(try store.related("items", of: red)) == [note, task])
        #expect(try store.related("items", of: blue) == [note])
        try store.save(author: "t") { try $0.setToMany("tags", of: note, to: [blue]) }
        #expect(try store.related("items", of: red) == [task])
    }

    @Test func oneToOneMovesAndLetsGoOfThePreviousPartner() throws {
        let alice = try insert("Owner", ["name": .string("Alice")])
        let bob = try insert("Owner", ["name": .string("Bob")])
        let profile = try insert("Profile")
        try store.save(author: "t") { try $0.setToOne("profile", of: alice, to: profile) }
        #expect(try store.related("owner", of: profile) == [alice])
        try store.save(author: "t") { try $0.setToOne("owner", of: profile, to: bob) }
        #expect(try store.related("profile", of: bob) == [profile])
        #expect(try store.related("profile", of: alice) == [])
        let changed = Set(try #require(try store.transactions().last).changes.map(\.globalID))
        #expect(changed == [alice, bob, profile])
    }

    @Test func toManyWithoutInverseUsesAJoinTable() throws {
        let folderRecord = try insert("Folder", ["name": .string("Inbox")])
        let notes = try (0..<3).map { try insert("Note", ["title": .string("n\($0)")]) }
        try store.save(author: "t") { try $0.setToMany("notes", of: folderRecord, to: notes.reversed()) }
        #expect(Set(try store.related("notes", of: folderRecord)) == Set(notes))
        let joinRows = try DatabaseQueue(path: store.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM j_Folder_notes") }
        #expect(joinRows == 3)
    }

    @Test func deleteRemovesEveryReferenceAndRecordsWhoLostOne() throws {
        let note = try insert("Note", ["title": .string("n")])
        let tag = try insert("Tag", ["name": .string("x")])
        let attachment = try insert("Attachment")
        try store.save(author: "t") { tx in
            try tx.setToMany("tags", of: note, to: [tag])
            try tx.setToOne("note", of: attachment, to: note)
        }
        try store.save(author: "t") { try $0.delete(note) }
        #expect(try store.record(attachment)?.toOne["note"] == nil)
        #expect(try store.related("items", of: tag) == [])
        let last = try #require(try store.transactions().last)
        let kinds = Dictionary(uniqueKeysWithValues: last.changes.map { ($0.globalID, $0.kind) })
        #expect(kinds == [note: .delete, tag: .update, attachment: .update])
    }

    @Test func cascadeDeletesDestinationsAndDenyRefuses() throws {
        let project = try insert("Project", ["name": .string("P")])
        let tasks = try (0..<2).map { try insert("Task", ["title": .string("t\($0)")]) }
        try store.save(author: "t") { try $0.setToMany("tasks", of: project, to: tasks) }
        try store.save(author: "t") { try $0.delete(project) }
        #expect(try store.liveRecordCounts()["Task"] == 0)

        let inbox = try insert("Folder", ["name": .string("Inbox")])
        let note = try insert("Note", ["title": .string("n")])
        try store.save(author: "t") { try $0.setToMany("notes", of: inbox, to: [note]) }
        let error = try #require(throws: StoreError.self) { try store.save(author: "t") { try $0.delete(inbox) } }
        #expect(error.description.contains("Deny"))
        #expect(try store.record(inbox) != nil)
        try store.save(author: "t") { tx in
            try tx.setToMany("notes", of: inbox, to: [])
            try tx.delete(inbox)
        }
        #expect(try store.record(inbox) == nil)
        #expect(try store.record(note) != nil)
    }

    @Test func relationshipsRefuseWrongTargetsAndWrongShapes() throws {
        let task = try insert("Task", ["title": .string("t")])
        let tag = try insert("Tag", ["name": .string("x")])
        let wrongKind = try #require(throws: StoreError.self) { try store.save(author: "t") { try $0.setToOne("project", of: task, to: tag) } }
        #expect(wrongKind.description.contains("points to Project"))
        let toMany = try #require(throws: StoreError.self) { try store.save(author: "t") { try $0.setToOne("tags", of: task, to: tag) } }
        #expect(toMany.description.contains("setToMany"))
        let missing = try #require(throws: StoreError.self) {
            try store.save(author: "t") { try $0.setToOne("project", of: task, to: GlobalID("nothing")) }
        }
        #expect(missing.description.contains("no record"))
    }
}
