import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// A store created for a bulk load: indexes left out until the end, duplicates found then.
@Suite struct BulkLoadTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func indexNames(of path: String) throws -> Set<String> {
        try DatabaseQueue(path: path).read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'"))
        }
    }

    private func tags(_ names: [String]) -> [ImportRecord] {
        names.map { ImportRecord(entity: "Tag", globalID: GlobalID($0), values: ["name": .string($0)]) }
    }

    @Test func aDeferredStoreGetsEveryIndexOfAnOrdinaryOneWhenBuilt() throws {
        let ordinary = try SyncStore.create(at: folder.path("o.store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
        let expected = try indexNames(of: ordinary.path)
        #expect(expected.contains("sk_change_gid"))
        #expect(expected.contains { $0.hasSuffix("__gid") }, "the unique global-ID index is a named index")

        let bulk = try SyncStore.create(at: folder.path("b.store"), model: TestModels.workspace(), contentName: "W", peerID: "P",
                                        deferIndexes: true)
        #expect(try bulk.hasPendingIndexes())
        // Made with the tables, both tiny: the migration history's key and the insert runs by transaction.
        #expect(try indexNames(of: bulk.path).isDisjoint(with: expected.subtracting(["sk_migration_key", "sk_insert_run_tx"])))
        let load = try bulk.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        try load.importBatch(tags(["a", "b"]), checkpoint: MigrationCheckpoint(stream: "s", position: 1, rows: 2, rejected: 0))
        try load.buildIndexes()
        #expect(try !bulk.hasPendingIndexes())
        #expect(try indexNames(of: bulk.path) == expected)
        #expect(try bulk.record(GlobalID("b"))?.values["name"] == .string("b"))
        #expect(throws: StoreError.self, "the unique index now refuses a second record with an existing ID") {
            try load.importBatch(tags(["a"]), checkpoint: MigrationCheckpoint(stream: "s", position: 2, rows: 3, rejected: 0))
        }
    }

    @Test func duplicateIDsAreNamedWhenTheIndexesAreBuiltAndNothingChanges() throws {
        let bulk = try SyncStore.create(at: folder.path("d.store"), model: TestModels.workspace(), contentName: "W", peerID: "P",
                                        deferIndexes: true)
        let load = try bulk.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        try load.importBatch(tags(["same", "other", "same"]), checkpoint: MigrationCheckpoint(stream: "s", position: 2, rows: 3, rejected: 0))
        let error = try #require(throws: StoreError.self) { try load.buildIndexes() }
        #expect(error.reason == .invalidRequest)
        #expect(error.message.contains("same (2 records of Tag)"))
        #expect(!error.message.contains("other"))
        #expect(try bulk.hasPendingIndexes(), "the failed build left the store as it was")
        #expect(try indexNames(of: bulk.path).allSatisfy { !$0.hasSuffix("__gid") })
    }

    /// Fast-commit settings hold on the store's connection from the load's beginning to its end, and
    /// commits made under them read back from a fresh connection like any others; a durable load
    /// leaves the ordinary settings alone.
    @Test func bulkLoadSettingsApplyUntilEnded() throws {
        let bulk = try SyncStore.create(at: folder.path("s.store"), model: TestModels.workspace(), contentName: "W", peerID: "P",
                                        deferIndexes: true)
        #expect(try bulk.connectionPragmas() == (2, 1_000))
        let durable = try bulk.beginBulkLoad(key: "d", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        #expect(try bulk.connectionPragmas() == (2, 1_000))
        try durable.finish(success: true)
        let load = try bulk.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m", commits: .fast)
        #expect(try bulk.connectionPragmas() == (1, SyncStore.bulkLoadCheckpointPages))
        try load.importBatch(tags(["a", "b"]), checkpoint: MigrationCheckpoint(stream: "s", position: 1, rows: 2, rejected: 0))
        try load.finish(success: true)
        #expect(try bulk.connectionPragmas() == (2, 1_000))
        #expect(try SyncStore.open(at: bulk.path, readOnly: true).liveRecordCounts()["Tag"] == 2)
    }

    @Test func openingAPendingStoreForWritingBuildsItsIndexesUnlessAskedNotTo() throws {
        let path = folder.path("p.store")
        _ = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W", peerID: "P", deferIndexes: true)
        #expect(try SyncStore.open(at: path, readOnly: true).hasPendingIndexes(), "a read-only open writes nothing")
        #expect(try SyncStore.open(at: path, buildingPendingIndexes: false).hasPendingIndexes())
        #expect(try !SyncStore.open(at: path).hasPendingIndexes())
        #expect(try indexNames(of: path).contains("sk_change_tx"))
    }

    @Test func lineBufferNumbersAreWrittenAsSwiftWritesThem() {
        let line = RecordLineBuffer()
        for number: Int64 in [0, 7, 9, -1, -9, 10, -10, 99, 100, 999_999, 1_000_000, 1_234_567_890, .max, .max - 1, .min, .min + 1] {
            line.clear()
            line.append(decimal: number)
            #expect(String(decoding: line.bytes, as: UTF8.self) == String(number))
        }
        for bits: UInt64 in [0, 1, 0xf, 0x10, 0xff, 0x100, 0x3ff0_0000_0000_0000, 0x0fff_ffff_ffff_ffff, .max, (-2.5).bitPattern] {
            line.clear()
            line.append(hex: bits)
            #expect(String(decoding: line.bytes, as: UTF8.self) == String(bits, radix: 16))
        }
        line.clear()
        line.appendField("héllo")
        #expect(String(decoding: line.bytes, as: UTF8.self) == SyncStore.field("héllo"))
    }

    /// A line longer than the buffer's first room (long notes, many attributes) grows it, and a
    /// shorter line after it holds only its own bytes, digested alone.
    @Test func lineBufferGrowsAndDigestsOnlyTheLine() {
        let line = RecordLineBuffer()
        let long = String(repeating: "speech notes ", count: 300)
        line.append(literal: "R ")
        line.appendField(long)
        line.append(byte: UInt8(ascii: " "))
        line.append(decimal: -42)
        let expected = "R " + SyncStore.field(long) + " -42"
        #expect(String(decoding: line.bytes, as: UTF8.self) == expected)
        line.clear()
        line.append(literal: "R ")
        line.appendField("x")
        #expect(String(decoding: line.bytes, as: UTF8.self) == "R " + SyncStore.field("x"))
        #expect(!line.appendTextField(marker: UInt8(ascii: "s"), "a\u{0}b"), "a string holding U+0000 takes the general encoding")
        #expect(String(decoding: line.bytes, as: UTF8.self) == "R " + SyncStore.field("x"), "and nothing was appended")
        #expect(line.appendTextField(marker: UInt8(ascii: "s"), "héllo"))
        #expect(String(decoding: line.bytes, as: UTF8.self) == "R " + SyncStore.field("x") + "s" + SyncStore.field("héllo"))
        line.clear()
        line.append(literal: "R ")
        line.appendField("x")
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { line.sha256(into: $0.baseAddress!) }
        #expect(SHA256.hex(digest) == SHA256.hexDigest(of: "R " + SyncStore.field("x")))
    }
}
