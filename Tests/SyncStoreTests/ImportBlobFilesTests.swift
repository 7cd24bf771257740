import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// The blob files an import writes are one batch, named only when the import commits: an import
/// that fails part-way leaves none behind, one that succeeds leaves every one readable.
@Suite struct ImportBlobFilesTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    private func bigValue(_ seed: UInt8) -> Data { Data(repeating: seed, count: 6000) }

    /// The regular files under `store`'s blob folder.
    private func blobFiles(of store: SyncStore) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: store.blobs.directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.contains("/") }.sorted()
    }

    @Test("an import that fails after writing a blob file leaves no file named; the same import whole leaves them all")
    func failedImportLeavesNoBlobFile() throws {
        let source = try SyncStore.create(at: folder.path("A.store"), model: TestModels.workspace(), contentName: "W", peerID: "A")
        for seed in UInt8(1)...3 {
            try source.save(author: "t") { tx in _ = try tx.insert("Attachment", values: ["data": .binary(bigValue(seed))]) }
        }
        let encoder = TransactionLogEncoder()
        try source.exportTransactions(after: 0, into: encoder, maxChanges: .max)
        var transactions: [SyncTransaction] = []
        let decoder = TransactionLogDecoder(model: source.model, peer: "A")
        try encoder.bytes.withUnsafeBytes { bytes in try decoder.forEachTransaction(in: bytes) { transactions.append($0) } }
        try #require(transactions.count == 3)

        let target = try SyncStore.create(at: folder.path("B.store"), model: TestModels.workspace(), contentName: "W", peerID: "B")
        // The first transaction writes its blob file; the third skips the second and is refused.
        #expect(throws: StoreError.self) { try target.applyRemoteTransactions([transactions[0], transactions[2]]) }
        #expect(blobFiles(of: target).isEmpty, "no blob file of the rolled-back import is left: \(blobFiles(of: target))")
        #expect(try target.globalIDs(of: "Attachment").isEmpty)

        let report = try target.applyRemoteTransactions(transactions)
        #expect(report.transactions["A"] == 3)
        #expect(blobFiles(of: target).count == 3, "\(blobFiles(of: target))")
        #expect(try target.contentDigest() == source.contentDigest())
        for id in try target.globalIDs(of: "Attachment") {
            #expect(try target.record(id)?.values["data"]?.kindName == "binary")
        }
    }
}
