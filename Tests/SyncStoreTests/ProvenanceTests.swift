import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// `userModifiedRecords(among:)`: what repair asks before it deletes a seed record.
@Suite struct ProvenanceTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func seed(_ name: String) throws -> GlobalID {
        try store.save(author: "storekeep.migrate") {
            try $0.insert("Tag", values: ["name": .string(name)], seed: SeedMark(set: "tags", version: 1))
        }
    }

    @Test func anAttributeEditByTheUserMakesTheRecordTheUsers() throws {
        let edited = try seed("red"), untouched = try seed("blue")
        try store.save(author: "app") { try $0.update(edited, values: ["name": .string("crimson")]) }
        #expect(try store.userModifiedRecords(among: [edited, untouched]) == [edited])
    }

    @Test func aRelationshipChangeOrAToolEditDoesNot() throws {
        let linked = try seed("red"), toolEdited = try seed("blue")
        let note = try store.save(author: "app") { try $0.insert("Note", values: ["title": .string("n")]) }
        try store.save(author: "app") { try $0.setToMany("tags", of: note, to: [linked]) }
        try store.save(author: "storekeep.repair") { try $0.update(toolEdited, values: ["name": .string("azure")]) }
        #expect(try store.record(linked)?.updatedAt != nil)
        #expect(try store.userModifiedRecords(among: [linked, toolEdited]).isEmpty)
    }

    @Test func anUpdatedRecordWithoutItsInsertInTheHistoryIsTakenToBeTheUsers() throws {
        let trimmed = try seed("red"), linkedTrimmed = try seed("blue"), neverTouched = try seed("green")
        let note = try store.save(author: "app") { try $0.insert("Note", values: ["title": .string("n")]) }
        try store.save(author: "app") { try $0.setToMany("tags", of: note, to: [trimmed]) }
        try store.database.write { db in
            try db.execute(sql: "DELETE FROM sk_change WHERE gid IN (?, ?, ?)",
                           arguments: [trimmed.rawValue, linkedTrimmed.rawValue, neverTouched.rawValue])
        }
        #expect(try store.userModifiedRecords(among: [trimmed, linkedTrimmed, neverTouched]) == [trimmed])
    }
}
