import Foundation
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct BackupAndBlobCleanupTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
    }

    private func bigValue(_ seed: UInt8) -> Data { Data(repeating: seed, count: 6000) }

    @Test func aBackupIsAStoreWithTheSameContentAndFiles() throws {
        try store.save(author: "t") { tx in
            for seed in UInt8(1)...3 { try tx.insert("Attachment", values: ["data": .binary(bigValue(seed))]) }
            try tx.insert("Tag", values: ["name": .string("red")])
        }
        let copyPath = folder.path("backup.store")
        let files = try store.backup(to: copyPath)
        #expect(files == 3)
        let copy = try SyncStore.open(at: copyPath, readOnly: true)
        #expect(try copy.contentDigest() == store.contentDigest())
        for id in try copy.globalIDs(of: "Attachment") {
            #expect(try copy.record(id)?.values["data"]?.kindName == "binary")
        }
        // A second backup to the same place is refused rather than mixed into the first.
        #expect(throws: StoreError.self) { try store.backup(to: copyPath) }
    }

    @Test func onlyOldUnreferencedFilesAreRemoved() throws {
        let kept = try store.save(author: "t") { try $0.insert("Attachment", values: ["data": .binary(bigValue(1))]) }
        let keptDigest = SHA256.hexDigest(of: bigValue(1))
        let orphan = bigValue(2), recentOrphan = bigValue(3)
        let orphanDigest = try store.blobs.write(orphan), recentDigest = try store.blobs.write(recentOrphan)
        let old = Date(timeIntervalSinceNow: -3600)
        for digest in [keptDigest, orphanDigest] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: store.blobs.fileURL(forDigest: digest).path)
        }
        let missingDigest = String(repeating: "ab", count: 32)
        let result = try store.removeUnreferencedBlobs([keptDigest, orphanDigest, recentDigest, missingDigest],
                                                       modifiedBefore: Date(timeIntervalSinceNow: -600))
        #expect(result.removed == [orphanDigest])
        #expect(result.referenced == [keptDigest])
        #expect(result.tooRecent == [recentDigest])
        #expect(result.missing == [missingDigest])
        #expect(!FileManager.default.fileExists(atPath: store.blobs.fileURL(forDigest: orphanDigest).path))
        #expect(try store.record(kept)?.values["data"] == .binary(bigValue(1)))
    }
}
