import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// The loading phase of a bulk load writes through a rollback journal, then the store returns to
/// WAL mode (`BulkLoad.Commits.appending`, `BulkLoad.endAppending()`).
@Suite struct AppendingLoadTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func tags(_ names: [String]) -> [ImportRecord] {
        names.map { ImportRecord(entity: "Tag", globalID: GlobalID($0), values: ["name": .string($0)]) }
    }

    /// Bytes 18 and 19 of the header: 2 and 2 in WAL mode, 1 and 1 in rollback-journal mode.
    private func headerVersions(of path: String) throws -> [UInt8] {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 18)
        return Array(try handle.read(upToCount: 2) ?? Data())
    }

    @Test func batchesGoThroughAJournalAndTheStoreEndsInWALMode() throws {
        let store = try SyncStore.create(at: folder.path("a.store"), model: TestModels.workspace(), contentName: "W", peerID: "P",
                                         deferIndexes: true)
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m", commits: .appending)
        #expect(load.switchedToJournal)
        #expect(try store.journalMode() == "truncate")
        #expect(try headerVersions(of: store.path) == [1, 1])
        try load.importBatch(tags((0..<2_000).map { "tag-\($0)" }), checkpoint: MigrationCheckpoint(stream: "s", position: 1_999, rows: 2_000, rejected: 0))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"), "the pages went to the store itself, not to a WAL")
        let journal = try FileManager.default.attributesOfItem(atPath: store.path + "-journal")[.size] as? NSNumber
        #expect(journal?.intValue == 0, "a committed batch leaves an empty journal")

        try load.endAppending()
        #expect(try store.journalMode() == "wal")
        #expect(try headerVersions(of: store.path) == [2, 2])
        #expect(try store.connectionPragmas() == (1, SyncStore.bulkLoadCheckpointPages), "still in the bulk load")
        try load.buildIndexes()
        try load.finish(success: true)
        #expect(try store.connectionPragmas() == (2, 1_000), "the ordinary settings again")
        #expect(try SyncStore.open(at: store.path, readOnly: true).liveRecordCounts()["Tag"] == 2_000)
    }

    @Test func anotherOpenConnectionKeepsTheLoadInWALMode() throws {
        let path = folder.path("b.store")
        let store = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W", peerID: "P", deferIndexes: true)
        let reader = try SyncStore.open(at: path, readOnly: true)
        #expect(try reader.liveRecordCounts().values.reduce(0, +) == 0)
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m", commits: .appending)
        #expect(!load.switchedToJournal, "SQLite cannot leave WAL mode while another connection has the store open")
        #expect(try store.journalMode() == "wal")
        try load.importBatch(tags(["a"]), checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 1, rejected: 0))
        try load.endAppending()
        #expect(try reader.liveRecordCounts()["Tag"] == 1)
    }
}
