import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// `StoreTransaction.merge(_:into:)`: what repair uses to fold duplicate records into one.
@Suite struct MergeTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> GlobalID {
        try store.save(author: "t") { try $0.insert(entity, values: values) }
    }

    @Test func orderedToManyHoldersMoveToTheKeeperAfterItsOwnMembers() throws {
        let keeper = try insert("Project", ["name": .string("P")])
        let duplicate = try insert("Project", ["name": .string("P")])
        let tasks = try (0..<4).map { try insert("Task", ["title": .string("t\($0)")]) }
        try store.save(author: "t") { tx in
            try tx.setToMany("tasks", of: keeper, to: [tasks[0]])
            try tx.setToMany("tasks", of: duplicate, to: [tasks[3], tasks[1], tasks[2]])
        }
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(try store.record(duplicate) == nil)
        // The cascade rule of Project.tasks must not take the moved tasks with the duplicate.
        #expect(try store.related("tasks", of: keeper) == [tasks[0], tasks[3], tasks[1], tasks[2]])
        for task in tasks { #expect(try store.related("project", of: task) == [keeper]) }

        let last = try #require(try store.transactions().last)
        #expect(last.author == "repair")
        let kinds = Dictionary(uniqueKeysWithValues: last.changes.map { ($0.globalID, $0.kind) })
        #expect(kinds[duplicate] == .delete)
        #expect(kinds[keeper] == .update)
        #expect(kinds[tasks[1]] == .update)
        #expect(kinds[tasks[0]] == nil)
    }

    @Test func manyToManyLinksMoveWithoutDoubling() throws {
        let keeper = try insert("Tag", ["name": .string("red")])
        let duplicate = try insert("Tag", ["name": .string("red")])
        let both = try insert("Note", ["title": .string("both")])
        let onlyDuplicate = try insert("Task", ["title": .string("dup only")])
        try store.save(author: "t") { tx in
            try tx.setToMany("items", of: keeper, to: [both])
            try tx.setToMany("items", of: duplicate, to: [both, onlyDuplicate])
        }
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(Set(try store.related("items", of: keeper)) == [both, onlyDuplicate])
        #expect(try store.related("tags", of: both) == [keeper])
        #expect(try store.related("tags", of: onlyDuplicate) == [keeper])
    }

    @Test func aTakenOneToOneSlotLetsTheHolderGo() throws {
        let keeper = try insert("Profile")
        let duplicate = try insert("Profile")
        let keepersOwner = try insert("Owner", ["name": .string("a")])
        let duplicatesOwner = try insert("Owner", ["name": .string("b")])
        try store.save(author: "t") { tx in
            try tx.setToOne("profile", of: keepersOwner, to: keeper)
            try tx.setToOne("profile", of: duplicatesOwner, to: duplicate)
        }
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(try store.related("owner", of: keeper) == [keepersOwner])
        #expect(try store.related("profile", of: duplicatesOwner) == [])
    }

    @Test func aFreeOneToOneSlotTakesTheHolder() throws {
        let keeper = try insert("Profile")
        let duplicate = try insert("Profile")
        let owner = try insert("Owner", ["name": .string("b")])
        try store.save(author: "t") { try $0.setToOne("profile", of: owner, to: duplicate) }
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(try store.related("owner", of: keeper) == [owner])
        #expect(try store.related("profile", of: owner) == [keeper])
    }

    @Test func oneWayToManyJoinRowsAreRetargeted() throws {
        let keeper = try insert("Note", ["title": .string("n")])
        let duplicate = try insert("Note", ["title": .string("n")])
        let folderRecord = try insert("Folder", ["name": .string("f")])
        let attachment = try insert("Attachment")
        try store.save(author: "t") { tx in
            try tx.setToMany("notes", of: folderRecord, to: [duplicate])
            try tx.setToOne("note", of: attachment, to: duplicate)
        }
        // Folder.notes has the Deny rule: the merge must move the link before deleting.
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(try store.related("notes", of: folderRecord) == [keeper])
        #expect(try store.related("note", of: attachment) == [keeper])
    }

    @Test func twoCopiesMergedAloneEndWithTheSameDigest() throws {
        let keeper = try insert("Tag", ["name": .string("red")])
        let duplicate = try insert("Tag", ["name": .string("red")])
        let notes = try (0..<3).map { try insert("Note", ["title": .string("n\($0)")]) }
        try store.save(author: "t") { tx in
            try tx.setToMany("items", of: duplicate, to: notes)
            try tx.setToMany("items", of: keeper, to: [notes[1]])
        }
        let copy = folder.path("copy.store")
        try FileManager.default.copyItem(atPath: store.path, toPath: copy)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: copy + suffix)
        }
        let other = try SyncStore.open(at: copy)
        try store.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        try other.save(author: "repair") { try $0.merge(duplicate, into: keeper) }
        #expect(try store.contentDigest() == other.contentDigest())
    }

    @Test func mergingRecordsOfDifferentEntitiesIsRefused() throws {
        let note = try insert("Note", ["title": .string("n")])
        let task = try insert("Task", ["title": .string("t")])
        #expect(throws: StoreError.self) { try store.save(author: "repair") { try $0.merge(note, into: task) } }
        #expect(throws: StoreError.self) { try store.save(author: "repair") { try $0.merge(note, into: note) } }
        #expect(try store.record(note) != nil)
    }
}
