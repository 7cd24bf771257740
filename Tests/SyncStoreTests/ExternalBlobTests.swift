import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct ExternalBlobTests {
    @Test func largeValuesGoToContentAddressedFilesAndReadBack() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let big = Data((0..<10_000).map { UInt8($0 % 251) })
        let small = Data(repeating: 7, count: SyncStore.externalStorageThreshold)
        let (a, b, c, d) = try store.save(author: "t") { tx in
            (try tx.insert("Attachment", values: ["data": .binary(big)]),
             try tx.insert("Attachment", values: ["data": .binary(big)]),
             try tx.insert("Attachment", values: ["data": .binary(small)]),
             try tx.insert("Attachment", values: ["inlineData": .binary(big)]))
        }
        let digest = SHA256.hexDigest(of: big)
        let file = store.blobDirectory.appendingPathComponent(String(digest.prefix(2))).appendingPathComponent(digest)
        #expect(try Data(contentsOf: file) == big)
        let allFiles = FileManager.default.enumerator(atPath: store.blobDirectory.path)?.compactMap { $0 as? String }
            .filter { !$0.hasPrefix(".") && $0.count > 2 } ?? []
        #expect(allFiles.count == 1, "identical values share one file, small and non-external values stay inline")
        let columns = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT _gid, a_data, a_inlineData FROM e_Attachment")
        }
        let byID = Dictionary(uniqueKeysWithValues: columns.map { ($0["_gid"] as String, $0) })
        #expect(byID[a.rawValue]?["a_data"] as String? == "sha256:\(digest)")
        #expect(byID[c.rawValue]?["a_data"] as Data? == small)
        #expect(byID[d.rawValue]?["a_inlineData"] as Data? == big)
        for id in [a, b] { #expect(try store.record(id)?.values["data"] == .binary(big)) }
        #expect(try store.record(c)?.values["data"] == .binary(small))
    }

    @Test func blobFilesStartedAheadAreWrittenBeforeTheirBatchAndReferredTo() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let values = (0..<3).map { index in Data((0..<6_000).map { UInt8(($0 + index) % 251) }) }
        let records = values.enumerated().map { index, data in
            ImportRecord(entity: "Attachment", globalID: GlobalID("a\(index)"), values: ["data": .binary(data), "inlineData": .binary(data)])
        }
        let files = load.startWritingBlobFiles(of: records)
        try files.waitUntilDurable()
        let written = Set(FileManager.default.enumerator(atPath: store.blobDirectory.path)?.compactMap { ($0 as? String)?.split(separator: "/").last.map(String.init) }
            .filter { $0.count == 64 } ?? [])
        #expect(written == Set(values.map { SHA256.hexDigest(of: $0) }), "one file per external value, none for the inline attribute")
        #expect(try store.globalIDs(of: "Attachment").isEmpty, "no row before the batch is imported")

        let checkpoint = MigrationCheckpoint(stream: "s", position: 2, rows: 3, rejected: 0)
        let mismatch = try #require(throws: StoreError.self) {
            try load.importBatch(Array(records.prefix(2)), checkpoint: checkpoint, blobFiles: files)
        }
        #expect(mismatch.reason == .invalidRequest)
        #expect(mismatch.description.contains("written for 3 records, not 2"))

        try load.importBatch(records, checkpoint: checkpoint, blobFiles: files)
        let columns = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT _gid, a_data, a_inlineData FROM e_Attachment ORDER BY _gid")
        }
        #expect(columns.map { $0["a_data"] as String } == values.map { "sha256:" + SHA256.hexDigest(of: $0) })
        #expect(columns.map { $0["a_inlineData"] as Data } == values)
        for (index, data) in values.enumerated() { #expect(try store.record(GlobalID("a\(index)"))?.values["data"] == .binary(data)) }
    }

    @Test func aLargeDefaultValueIsWrittenAheadLikeAGivenOne() throws {
        let folder = try TemporaryFolder()
        let picture = Data((0..<5_000).map { UInt8($0 % 241) })
        let model = ManagedModel(name: "Pictures", versionName: "Pictures 1", entities: [
            EntityDescription(name: "Card", attributes: [
                .init(name: "title", type: .string, isOptional: true),
                .init(name: "picture", type: .binary, isOptional: true, defaultValue: .binary(picture), allowsExternalBinaryDataStorage: true),
            ]),
        ])
        let store = try SyncStore.create(at: folder.path("p.store"), model: model, contentName: "P")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let records = [ImportRecord(entity: "Card", globalID: GlobalID("c"), values: ["title": .string("no picture given")])]
        let files = load.startWritingBlobFiles(of: records)
        #expect(Array(try files.references().values) == ["sha256:" + SHA256.hexDigest(of: picture)],
                "the default is prepared on the blob queue, not written on the committing thread")
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 1, rejected: 0),
                              blobFiles: files)
        #expect(try store.record(GlobalID("c"))?.values["picture"] == .binary(picture))
    }

    /// A snapshot baseline's store is opened with its blobs where they lie in the baseline file.
    @Test func packedBlobsAreReadWhereTheyLieAndCheckedAgainstTheirDigest() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let first = Data((0..<5_000).map { UInt8($0 % 253) }), second = Data(repeating: 9, count: 6_000)
        let (a, b) = try store.save(author: "t") { tx in
            (try tx.insert("Attachment", values: ["data": .binary(first)]), try tx.insert("Attachment", values: ["data": .binary(second)]))
        }
        // Both values one after another in one file; the second's place is given wrongly (the first's bytes).
        let packedPath = folder.path("packed")
        try (Data("head".utf8) + first + second).write(to: URL(fileURLWithPath: packedPath))
        let places = [
            try #require(PackedBlobs.Digest(hex: SHA256.hexDigest(of: first))): PackedBlobs.Place(offset: 4, bytes: Int64(first.count)),
            try #require(PackedBlobs.Digest(hex: SHA256.hexDigest(of: second))): PackedBlobs.Place(offset: 4, bytes: Int64(second.count)),
        ]
        try FileManager.default.removeItem(at: store.blobDirectory)
        let snapshot = try SyncStore.open(at: store.path, packedBlobs: PackedBlobs(path: packedPath, places: places))
        #expect(try snapshot.record(a)?.values["data"] == .binary(first))
        #expect(throws: StoreError.self) { try snapshot.record(b) }
        let error = try #require(throws: StoreError.self) { try snapshot.exportBaseline(into: BaselineEncoder()) }
        #expect(error.reason == .damaged && error.description.contains(packedPath), "\(error)")
    }

    @Test func aMissingBlobFileIsReportedNotInvented() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let big = Data(repeating: 1, count: 5000)
        let id = try store.save(author: "t") { try $0.insert("Attachment", values: ["data": .binary(big)]) }
        try FileManager.default.removeItem(at: store.blobDirectory)
        let error = try #require(throws: StoreError.self) { try store.record(id) }
        #expect(error.reason == .damaged)
        #expect(error.description.contains("Attachment.data"))
    }
}
