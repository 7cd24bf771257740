import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// A store written around storekeep may hold any value anywhere: a text where a time belongs,
/// bytes that are not UTF-8 where a name belongs, a number too large to count on from. Reading it
/// gives a typed error naming the store, the table and the row; it never stops the process (GRDB's
/// typed subscripts do, on a value they cannot convert) and never reads outside the blob folder.
@Suite struct DamagedValueTests {
    private func store() throws -> (SyncStore, TemporaryFolder, GlobalID) {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("d.store"), model: TestModels.workspace(), contentName: "Damage")
        let note = try store.save(author: "app") { try $0.insert("Note", values: ["title": .string("n")]) }
        return (store, folder, note)
    }

    @Test func aRecordWithATextForItsCreationTime() throws {
        let (store, folder, note) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE e_Item SET _created = 'yesterday' WHERE _gid = ?", [note.rawValue])
        expectDamaged("record", naming: ["e_Item", note.rawValue, "_created"]) { _ = try store.record(note) }
    }

    @Test func aRecordNamingNoEntityOfTheModel() throws {
        let (store, folder, note) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE e_Item SET _entity = 'Gone' WHERE _gid = ?", [note.rawValue])
        expectDamaged("record", naming: [note.rawValue, "Gone"]) { _ = try store.record(note) }
        expectDamaged("a save touching it", naming: [note.rawValue, "e_Item"]) {
            try store.save(author: "app") { try $0.update(note, values: ["title": .string("x")]) }
        }
    }

    @Test func anExternalReferenceThatLeavesTheBlobFolder() throws {
        let (store, folder, _) = try store()
        let outside = folder.path("secret")
        try Data("not the store's".utf8).write(to: URL(fileURLWithPath: outside))
        let attachment = try store.save(author: "app") { try $0.insert("Attachment") }
        try writeAround(store, "UPDATE e_Attachment SET a_data = ? WHERE _gid = ?", ["sha256:../../secret", attachment.rawValue])
        expectDamaged("record", naming: [attachment.rawValue, "sha256:../../secret"]) { _ = try store.record(attachment) }
    }

    @Test func historyWithBytesThatAreNotText() throws {
        let (store, folder, _) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_transaction SET author = X'FFFE'")
        expectDamaged("transactions", naming: ["sk_transaction", "author"]) { _ = try store.transactions() }
    }

    @Test func aSequenceNumberTooLargeToCountOnFrom() throws {
        let (store, folder, _) = try store()
        defer { withExtendedLifetime(folder) {} }
        try writeAround(store, "UPDATE sk_transaction SET seq = ?", [Int64.max])
        expectDamaged("the next save", naming: ["sequence"]) {
            try store.save(author: "app") { _ = try $0.insert("Note", values: ["title": .string("m")]) }
        }
    }

    @Test func aCheckpointThatNoRunWrites() throws {
        let (store, folder, _) = try store()
        defer { withExtendedLifetime(folder) {} }
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        try writeAround(store, "INSERT INTO sk_checkpoint (migration, stream, position, rows, rejected, digest) VALUES (?, 'items', X'00', 0, 0, '')",
                [load.run.id])
        expectDamaged("checkpoints", naming: ["sk_checkpoint", "items", "position"]) { _ = try store.checkpoints(migration: load.run.id) }
        try writeAround(store, "UPDATE sk_checkpoint SET position = ?", [Int64.max])
        expectDamaged("checkpoints", naming: ["sk_checkpoint", "items"]) { _ = try store.checkpoints(migration: load.run.id) }
    }

    @Test func aRealTooLargeForAnIntegerAttributeIsCarriedAsItIs() throws {
        let (store, folder, _) = try store()
        defer { withExtendedLifetime(folder) {} }
        let task = try store.save(author: "app") { try $0.insert("Task", values: ["title": .string("t")]) }
        try writeAround(store, "UPDATE e_Item SET a_priority = 1e30 WHERE _gid = ?", [task.rawValue])
        #expect(try store.record(task)?.values["priority"] == .double(1e30))
    }
}
