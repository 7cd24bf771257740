import Foundation
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct ContentDigestTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    private func makeStore(_ name: String, peer: String) throws -> SyncStore {
        try SyncStore.create(at: folder.path(name), model: TestModels.workspace(), contentName: "W", peerID: peer)
    }

    /// Fills a store with fixed content; `reversed` inserts in the opposite order and through a longer history.
    private func fill(_ store: SyncStore, reversed: Bool) throws {
        let ids = (0..<4).map { GlobalID("task-\($0)") }
        try store.save(author: "a") { tx in
            let project = try tx.insert("Project", id: GlobalID("project"), values: ["name": .string("P")])
            let order = reversed ? Array(ids.reversed()) : ids
            for id in order {
                try tx.insert("Task", id: id, values: ["title": .string(reversed ? "draft" : "t-\(id.rawValue)")])
            }
            try tx.setToMany("tasks", of: project, to: [ids[2], ids[0], ids[3]])
            let red = try tx.insert("Tag", id: GlobalID("red"), values: ["name": .string("red")])
            let blue = try tx.insert("Tag", id: GlobalID("blue"), values: ["name": .string("blue")])
            try tx.setToMany("tags", of: ids[1], to: reversed ? [blue, red] : [red, blue])
            try tx.insert("Attachment", id: GlobalID("att"), values: ["data": .binary(Data(repeating: 9, count: 6000))])
            try tx.insert("SpeechType", id: GlobalID("st"), values: ["name": .string("Toast")], seed: SeedMark(set: "builtin", version: 1))
        }
        if reversed {
            try store.save(author: "b") { tx in
                for id in ids { try tx.update(id, values: ["title": .string("t-\(id.rawValue)")]) }
            }
        }
    }

    @Test func equalContentGivesEqualDigestsWhateverTheHistory() throws {
        let a = try makeStore("a.store", peer: "A")
        let b = try makeStore("b.store", peer: "B")
        try fill(a, reversed: false)
        try fill(b, reversed: true)
        #expect(try a.historySummary() != b.historySummary())
        let digestA = try a.contentDigest()
        let digestB = try b.contentDigest()
        #expect(digestA == digestB)
        #expect(digestA.records == 9)
        #expect(digestA.entities["Task"]?.records == 4)
        #expect(digestA.digest.count == 64)
    }

    @Test func everyKindOfContentChangeChangesTheDigest() throws {
        let reference = try makeStore("ref.store", peer: "R")
        try fill(reference, reversed: false)
        let base = try reference.contentDigest()
        let changes: [(String, (StoreTransaction) throws -> Void)] = [
            ("a value", { try $0.update(GlobalID("task-0"), values: ["title": .string("other")]) }),
            ("an order", { try $0.setToMany("tasks", of: GlobalID("project"), to: [GlobalID("task-0"), GlobalID("task-2"), GlobalID("task-3")]) }),
            ("a member", { try $0.setToMany("tags", of: GlobalID("task-1"), to: [GlobalID("red")]) }),
            ("a blob", { try $0.update(GlobalID("att"), values: ["data": .binary(Data(repeating: 8, count: 6000))]) }),
            ("a record", { try $0.delete(GlobalID("st")) }),
        ]
        for (index, (what, change)) in changes.enumerated() {
            let copy = try makeStore("copy\(index).store", peer: "C")
            try fill(copy, reversed: false)
            #expect(try copy.contentDigest() == base)
            try copy.save(author: "t", change)
            #expect(try copy.contentDigest().digest != base.digest, "changing \(what) changes the digest")
        }
    }

    /// Format 2 (docs/format.md): an entity without to-many members digests as `R <records> <sum>`,
    /// the sum being the order-free sum of its records' line digests that migrations check; the
    /// store digest chains the entity digests under the format line.
    @Test func theDigestFollowsFormatTwo() throws {
        let store = try makeStore("f.store", peer: "F")
        try fill(store, reversed: false)
        let content = try store.contentDigest()
        let (count, sum) = try store.recordDigestSum(of: "Attachment")
        #expect(count == 1)
        var entity = SHA256()
        entity.update("R \(count) \(sum)\n")
        let entityHex = entity.finalizeHex()
        #expect(content.entities["Attachment"]?.digest == entityHex)
        var total = SHA256()
        total.update("storekeep-content-digest 2\n")
        for (name, digest) in content.entities.sorted(by: { $0.key < $1.key }) {
            total.update("\(name) \(digest.records) \(digest.digest)\n")
        }
        let totalHex = total.finalizeHex()
        #expect(content.digest == totalHex)
    }

    @Test func seedMarkIsContent() throws {
        let a = try makeStore("a.store", peer: "A")
        let b = try makeStore("b.store", peer: "B")
        try a.save(author: "t") { try $0.insert("Tag", id: GlobalID("x"), values: ["name": .string("x")]) }
        try b.save(author: "t") { try $0.insert("Tag", id: GlobalID("x"), values: ["name": .string("x")], seed: SeedMark(set: "s", version: 1)) }
        #expect(try a.contentDigest().digest != b.contentDigest().digest)
    }
}
