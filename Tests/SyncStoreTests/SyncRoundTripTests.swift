import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// Export, transaction log encoding and import between stores in one process: what `sync` is built on.
@Suite struct SyncRoundTripTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    private func store(_ name: String) throws -> SyncStore {
        try SyncStore.create(at: folder.path("\(name).store"), model: TestModels.workspace(), contentName: "W", peerID: name)
    }

    /// Moves every transaction of `from` that `to` lacks, through the log encoding.
    @discardableResult
    private func push(_ from: SyncStore, to: SyncStore) throws -> RemoteImportReport {
        let after = try to.importWatermarks()[from.metadata.peerID] ?? 0
        let encoder = TransactionLogEncoder()
        try from.exportTransactions(after: after, into: encoder, maxChanges: .max)
        var transactions: [SyncTransaction] = []
        let decoder = TransactionLogDecoder(model: from.model, peer: from.metadata.peerID)
        try encoder.bytes.withUnsafeBytes { bytes in try decoder.forEachTransaction(in: bytes) { transactions.append($0) } }
        return try to.applyRemoteTransactions(transactions)
    }

    private func exchange(_ stores: [SyncStore]) throws {
        for _ in 0..<2 {
            for from in stores { for to in stores where to !== from { try push(from, to: to) } }
        }
    }

    @Test func everyKindOfChangeArrivesWithItsValues() throws {
        let a = try store("A"), b = try store("B")
        let (task, tag, owner, profile) = try a.save(author: "app") { tx in
            let project = try tx.insert("Project", values: ["name": .string("P")])
            let task = try tx.insert("Task", values: ["title": .string("T"), "priority": .integer(3)])
            try tx.setToOne("project", of: task, to: project)
            let tag = try tx.insert("Tag", values: ["name": .string("red")])
            try tx.setToMany("tags", of: task, to: [tag])
            let owner = try tx.insert("Owner", values: ["name": .string("O")])
            let profile = try tx.insert("Profile", values: ["bio": .string("b")])
            try tx.setToOne("profile", of: owner, to: profile)
            try tx.insert("Kinds", values: [
                "i16": .integer(-3), "i64": .integer(.max), "dec": .decimal("12.250"), "dbl": .double(-0.0), "flt": .double(.infinity),
                "str": .string("a\u{0}b é"), "flag": .boolean(true), "when": .date(Date(timeIntervalSince1970: -1.5)),
                "bytes": .binary(Data([0, 1, 2])), "uid": .uuid(UUID()), "link": .uri("https://x/y"),
            ])
            try tx.insert("Attachment", values: ["data": .binary(Data(repeating: 7, count: 10_000))])
            return (task, tag, owner, profile)
        }
        try a.save(author: "app") { tx in
            try tx.update(task, values: ["title": .string("T2")])
            try tx.setToMany("tags", of: task, to: [])
            try tx.setToOne("profile", of: owner, to: nil)
            try tx.delete(profile)
            try tx.setToMany("items", of: tag, to: [task])
        }
        try push(a, to: b)
        #expect(try b.contentDigest() == a.contentDigest())
        #expect(try b.importWatermarks()["A"] == 2)
        // Nothing more to send, and sending again changes nothing.
        let again = try push(a, to: b)
        #expect(again.transactions.isEmpty)
        #expect(try b.contentDigest() == a.contentDigest())
    }

    @Test func bulkImportedRecordsTravelWithTheirValues() throws {
        let a = try store("A"), b = try store("B")
        let load = try a.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "storekeep.migrate")
        let records = (0..<50).map { ImportRecord(entity: "Tag", globalID: GlobalID("tag-\($0)"), values: ["name": .string("n\($0)")]) }
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 49, rows: 50, rejected: 0))
        try a.save(author: "app") { tx in try tx.update(GlobalID("tag-3"), values: ["name": .string("renamed")]) }
        try push(a, to: b)
        #expect(try b.contentDigest() == a.contentDigest())
        #expect(try b.record(GlobalID("tag-3"))?.values["name"] == .string("renamed"))
    }

    @Test func concurrentUpdatesOfOnePropertyEndTheSameEverywhere() throws {
        let a = try store("A"), b = try store("B"), c = try store("C")
        let id = try a.save(author: "app") { try $0.insert("Tag", values: ["name": .string("x")]) }
        try exchange([a, b, c])
        try a.save(author: "app") { try $0.update(id, values: ["name": .string("from A")]) }
        try b.save(author: "app") { try $0.update(id, values: ["name": .string("from B")]) }
        try c.save(author: "app") { try $0.update(id, values: ["name": .string("from C")]) }
        try push(c, to: a)
        try push(b, to: c)
        try push(a, to: b)
        try exchange([a, b, c])
        let values = try [a, b, c].map { try $0.record(id)?.values["name"] }
        #expect(Set(values.map { "\(String(describing: $0))" }).count == 1)
        #expect(try a.contentDigest() == b.contentDigest())
        #expect(try b.contentDigest() == c.contentDigest())
    }

    @Test func aDeleteWinsOverAConcurrentUpdate() throws {
        let a = try store("A"), b = try store("B")
        let id = try a.save(author: "app") { try $0.insert("Tag", values: ["name": .string("x")]) }
        try exchange([a, b])
        try a.save(author: "app") { try $0.delete(id) }
        try b.save(author: "app") { try $0.update(id, values: ["name": .string("edited later")]) }
        try exchange([a, b])
        #expect(try a.record(id) == nil)
        #expect(try b.record(id) == nil)
        #expect(try a.contentDigest() == b.contentDigest())
    }

    @Test func anInsertOfARecordElsewhereNeverOverwritesAnUpdate() throws {
        let a = try store("A"), b = try store("B")
        let seed = GlobalID("seed-SpeechType-Toast")
        try a.save(author: "seed") { try $0.insert("SpeechType", id: seed, values: ["name": .string("Toast"), "greenSeconds": .double(60)],
                                                   seed: SeedMark(set: "builtin", version: 1)) }
        try a.save(author: "app") { try $0.update(seed, values: ["greenSeconds": .double(90)]) }
        // B seeds the same record later, offline.
        Thread.sleep(forTimeInterval: 0.01)
        try b.save(author: "seed") { try $0.insert("SpeechType", id: seed, values: ["name": .string("Toast"), "greenSeconds": .double(60)],
                                                   seed: SeedMark(set: "builtin", version: 1)) }
        try exchange([a, b])
        #expect(try a.record(seed)?.values["greenSeconds"] == .double(90))
        #expect(try b.record(seed)?.values["greenSeconds"] == .double(90))
        #expect(try a.contentDigest() == b.contentDigest())
    }

    @Test func concurrentMembershipChangesMergeMemberByMember() throws {
        let a = try store("A"), b = try store("B")
        let (note, red, blue) = try a.save(author: "app") { tx in
            let note = try tx.insert("Note", values: ["title": .string("n")])
            let red = try tx.insert("Tag", values: ["name": .string("red")])
            let blue = try tx.insert("Tag", values: ["name": .string("blue")])
            try tx.setToMany("tags", of: note, to: [red])
            return (note, red, blue)
        }
        try exchange([a, b])
        try a.save(author: "app") { try $0.setToMany("tags", of: note, to: [red, blue]) }
        try b.save(author: "app") { try $0.setToMany("tags", of: note, to: []) }
        try exchange([a, b])
        #expect(try a.contentDigest() == b.contentDigest())
        // A added blue (B never touched it); B's removal of red is later than A's unchanged red.
        #expect(try a.related("tags", of: note) == [blue])
    }

    @Test func aBaselineGivesANewPeerTheSameContentAndClocks() throws {
        let a = try store("A"), b = try store("B"), fresh = try store("N")
        let (note, red, blue, tag) = try a.save(author: "app") { tx in
            let note = try tx.insert("Note", values: ["title": .string("n")])
            let red = try tx.insert("Tag", values: ["name": .string("red")])
            let blue = try tx.insert("Tag", values: ["name": .string("blue")])
            try tx.setToMany("tags", of: note, to: [red, blue])
            let tag = try tx.insert("Tag", values: ["name": .string("gone")])
            try tx.insert("Attachment", values: ["data": .binary(Data(repeating: 3, count: 9_000))])
            return (note, red, blue, tag)
        }
        try exchange([a, b])
        try a.save(author: "app") { tx in
            try tx.update(note, values: ["title": .string("edited")])
            try tx.setToMany("tags", of: note, to: [red])
            try tx.delete(tag)
        }
        try exchange([a, b])
        // B changes the title again, later; N starts from A's baseline, then imports B's change.
        try b.save(author: "app") { try $0.update(note, values: ["title": .string("from B")]) }
        let encoder = BaselineEncoder()
        let coverage = try a.exportBaseline(into: encoder)
        #expect(coverage.vector == ["A": 2])
        _ = try fresh.applyBaseline(encoder.bytes, coverage: coverage)
        #expect(try fresh.contentDigest() == a.contentDigest())
        #expect(try fresh.importWatermarks()["A"] == 2)
        #expect(try fresh.historyFloor()["A"] == 2)
        // The deleted record stays deleted, and a later change merges as it does on A.
        try push(b, to: fresh)
        try push(b, to: a)
        #expect(try fresh.record(tag) == nil)
        #expect(try fresh.contentDigest() == a.contentDigest())
        #expect(try fresh.related("tags", of: note) == [red])
        _ = blue
        // A baseline merged into a store that already holds the content changes nothing.
        let again = BaselineEncoder()
        let coverageAgain = try a.exportBaseline(into: again)
        _ = try b.applyBaseline(again.bytes, coverage: coverageAgain)
        #expect(try b.contentDigest() == a.contentDigest())
    }

    @Test("a baseline reads each record's property clocks as they are, and refuses one of another kind")
    func propertyClocksOfABaseline() throws {
        let a = try store("A"), fresh = try store("N")
        let note = try a.save(author: "app") { try $0.insert("Note", values: ["title": .string("n")]) }
        try a.save(author: "app") { try $0.update(note, values: ["title": .string("edited")]) }
        // The edit's clock travels with the record: merged into a store that saw an older title
        // at a later clock, the edit is kept only when its clock is the later one.
        let exported = BaselineEncoder()
        let coverage = try a.exportBaseline(into: exported)
        _ = try fresh.applyBaseline(exported.bytes, coverage: coverage)
        #expect(try fresh.contentDigest() == a.contentDigest())
        #expect(try fresh.record(note)?.values["title"] == .string("edited"))
        for damage in ["'soon'", "1.5"] {
            try writeAround(a, "UPDATE sk_clock SET hlc = \(damage) WHERE property != ''")
            expectDamaged("a clock reading of \(damage)", naming: ["sk_clock", "hlc"]) { _ = try a.exportBaseline(into: BaselineEncoder()) }
        }
    }

    private struct Stopped: Error {}

    @Test("a baseline handed on and merged in parts is the whole baseline; stopped midway, nothing of it is merged")
    func aBaselineInPartsIsTheWholeBaseline() throws {
        let a = try store("A"), fresh = try store("N"), stopped = try store("S")
        try a.save(author: "app") { tx in
            let note = try tx.insert("Note", values: ["title": .string("n")])
            let red = try tx.insert("Tag", values: ["name": .string("red")])
            try tx.setToMany("tags", of: note, to: [red])
            try tx.insert("Attachment", values: ["data": .binary(Data(repeating: 5, count: 9_000))])
            try tx.delete(try tx.insert("Tag", values: ["name": .string("gone")]))
        }
        let whole = BaselineEncoder()
        let coverage = try a.exportBaseline(into: whole)
        var parts: [[UInt8]] = []
        let inParts = BaselineEncoder(handingOnEvery: 1) { parts.append($0) }
        #expect(try a.exportBaseline(into: inParts) == coverage)
        // One item per part, every part handed on, and together the same bytes as the whole body.
        #expect(parts.count == whole.records + whole.memberships + whole.tombstones && parts.count >= 4)
        #expect(inParts.bytes.isEmpty)
        #expect(Array(parts.joined()) == whole.bytes)
        // A later part refers to names an earlier one defined: read alone, it is refused.
        let last = try #require(parts.last)
        #expect(throws: WireError.self) { _ = try fresh.applyBaseline(last, coverage: coverage) }

        _ = try fresh.applyBaseline(coverage: coverage) { merge in
            for part in parts { try part.withUnsafeBytes { try merge($0) } }
        }
        #expect(try fresh.contentDigest() == a.contentDigest())
        #expect(try fresh.importWatermarks()["A"] == coverage.vector["A"])

        let empty = try stopped.contentDigest()
        #expect(throws: Stopped.self) {
            _ = try stopped.applyBaseline(coverage: coverage) { merge in
                for part in parts.prefix(3) { try part.withUnsafeBytes { try merge($0) } }
                throw Stopped()
            }
        }
        #expect(try stopped.contentDigest() == empty)
        #expect(try stopped.importWatermarks()["A"] == nil)
    }
}
