import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// The primitives repair uses on references that point nowhere.
@Suite struct CleanupTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> GlobalID {
        try store.save(author: "t") { try $0.insert(entity, values: values) }
    }

    @Test func aDanglingToOneIsEmptiedAndAValidOneIsLeftAlone() throws {
        let project = try insert("Project", ["name": .string("P")])
        let dangling = try insert("Task", ["title": .string("dangling")])
        let valid = try insert("Task", ["title": .string("valid")])
        try store.save(author: "t") { try $0.setToOne("project", of: valid, to: project) }
        try store.database.write { db in
            try db.execute(sql: "UPDATE e_Item SET r_project = 'NO-SUCH-RECORD' WHERE _gid = ?", arguments: [dangling.rawValue])
        }
        let cleared = try store.save(author: "storekeep.repair") { tx in
            [try tx.clearInvalidReference("project", of: dangling), try tx.clearInvalidReference("project", of: valid)]
        }
        #expect(cleared == [true, false])
        #expect(try store.record(dangling)?.toOne["project"] == nil)
        #expect(try store.related("project", of: valid) == [project])
        let last = try #require(try store.transactions().last)
        #expect(last.changes.map(\.globalID) == [dangling])
        #expect(last.changes.first?.properties == ["project"])
    }

    @Test func aPointerToTheWrongEntityIsEmptied() throws {
        let tag = try insert("Tag", ["name": .string("not a project")])
        let task = try insert("Task", ["title": .string("t")])
        try store.database.write { db in
            try db.execute(sql: "UPDATE e_Item SET r_project = ? WHERE _gid = ?", arguments: [tag.rawValue, task.rawValue])
        }
        #expect(try store.save(author: "storekeep.repair") { try $0.clearInvalidReference("project", of: task) })
        #expect(try store.record(task)?.toOne["project"] == nil)
    }

    @Test func aJoinRowToNothingIsRemovedAndTheLiveSideRecorded() throws {
        let note = try insert("Note", ["title": .string("n")])
        let tag = try insert("Tag", ["name": .string("red")])
        try store.save(author: "t") { try $0.setToMany("tags", of: note, to: [tag]) }
        let table = try #require(store.layout.joinTables.first { $0.hasPrefix("j_Item_tags") })
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO \(table) (owner, target) VALUES (?, 'GONE')", arguments: [note.rawValue])
        }
        let removed = try store.save(author: "storekeep.repair") { tx in
            [try tx.removeJoinRow(in: table, owner: note, target: GlobalID("GONE")),
             try tx.removeJoinRow(in: table, owner: note, target: GlobalID("GONE"))]
        }
        #expect(removed == [true, false])
        #expect(try store.related("tags", of: note) == [tag])
        let last = try #require(try store.transactions().last)
        #expect(last.changes.map(\.globalID) == [note])
        #expect(last.changes.first?.properties == ["tags"])
    }

    @Test func aDenyRelationshipThatHoldsRecordsBlocksDeletion() throws {
        let folderRecord = try insert("Folder", ["name": .string("f")])
        let empty = try insert("Folder", ["name": .string("e")])
        let note = try insert("Note", ["title": .string("n")])
        try store.save(author: "t") { try $0.setToMany("notes", of: folderRecord, to: [note]) }
        let blockers = try store.save(author: "t") { tx in [try tx.deletionBlocker(of: folderRecord), try tx.deletionBlocker(of: empty)] }
        #expect(blockers[0]?.contains("notes") == true)
        #expect(blockers[1] == nil)
    }
}

extension CleanupTests {
    @Test func aSlotTakerWhoseTargetPointsElsewhereLetsGo() throws {
        let profile = try insert("Profile")
        let rightful = try insert("Owner", ["name": .string("a")])
        let intruder = try insert("Owner", ["name": .string("b")])
        try store.save(author: "t") { try $0.setToOne("profile", of: rightful, to: profile) }
        try store.database.write { db in
            try db.execute(sql: "UPDATE e_Owner SET r_profile = ? WHERE _gid = ?", arguments: [profile.rawValue, intruder.rawValue])
        }
        let released = try store.save(author: "storekeep.repair") { tx in
            [try tx.releaseUnreturnedReference("profile", of: intruder), try tx.releaseUnreturnedReference("profile", of: rightful)]
        }
        #expect(released == [true, false])
        #expect(try store.related("profile", of: rightful) == [profile])
        #expect(try store.related("owner", of: profile) == [rightful])
        #expect(try store.record(intruder)?.toOne["profile"] == nil)
    }
}
