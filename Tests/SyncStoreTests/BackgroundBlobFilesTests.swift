import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// An import's blob files are written on a thread of their own: each reference is given at once,
/// the files are named only once ``BackgroundBlobFiles/finish()`` made them durable, a failure on
/// that thread reaches the import, and an abandoned import names nothing.
@Suite struct BackgroundBlobFilesTests {
    let folder: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("B.store"), model: TestModels.workspace(), contentName: "W", peerID: "B")
    }

    private func value(_ index: Int) -> Data { Data((0..<6_000).map { UInt8(($0 + index) % 251) }) }

    /// The blob files under the store's blob folder, by name.
    private func namedFiles() -> Set<String> {
        let names = FileManager.default.enumerator(atPath: store.blobs.directory.path)?.compactMap { $0 as? String } ?? []
        return Set(names.compactMap { $0.split(separator: "/").last.map(String.init) }.filter { $0.count == 64 })
    }

    @Test("every file handed over is named, with its content, only once finished; a limit below one file's size still lets each through")
    func filesAreNamedWhenFinished() throws {
        let files = BackgroundBlobFiles(store: store, byteLimit: 1)
        let values = (0..<40).map(value)
        var references: [String] = []
        for data in values + values.prefix(3) {
            references.append(try files.reference(writing: data, entity: "Attachment", column: "data"))
        }
        #expect(references == (values + values.prefix(3)).map { "sha256:" + SHA256.hexDigest(of: $0) })
        #expect(namedFiles().isEmpty, "named before they were made durable: \(namedFiles().count)")
        try files.finish()
        #expect(namedFiles() == Set(values.map { SHA256.hexDigest(of: $0) }))
        for data in values {
            #expect(try store.blobs.read(digest: SHA256.hexDigest(of: data)) == data)
        }
    }

    @Test("a file the thread cannot write stops the import: finish and the next reference say which value and where")
    func aFailureOnTheWritingThreadReachesTheImport() throws {
        let data = value(1)
        let digest = SHA256.hexDigest(of: data)
        // A file where the blob's sub-folder must be: the blob cannot be written under it.
        try FileManager.default.createDirectory(atPath: store.blobs.directory.path, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: store.blobs.directory.path + "/" + digest.prefix(2)))
        let files = BackgroundBlobFiles(store: store)
        _ = try files.reference(writing: data, entity: "Attachment", column: "data")
        let failure = try #require(throws: StoreError.self) { try files.finish() }
        #expect(failure.reason == .io)
        #expect(failure.description.contains("Attachment.data"), "\(failure)")
        #expect(failure.description.contains(store.blobs.directory.path), "\(failure)")
        let next = try #require(throws: StoreError.self) { _ = try files.reference(writing: value(2), entity: "Attachment", column: "data") }
        #expect(next.description.contains("Attachment.data"))
        #expect(namedFiles().isEmpty)
    }

    @Test("an abandoned import names none of the files handed over, and refuses to give or finish more")
    func abandonedFilesAreNotNamed() throws {
        let files = BackgroundBlobFiles(store: store)
        for index in 0..<20 { _ = try files.reference(writing: value(index), entity: "Attachment", column: "data") }
        files.abandon()
        #expect(namedFiles().isEmpty)
        #expect(throws: StoreError.self) { _ = try files.reference(writing: value(99), entity: "Attachment", column: "data") }
        #expect(throws: StoreError.self) { try files.finish() }
        #expect(namedFiles().isEmpty)
    }

    @Test("an import whose blob files cannot be written fails with that error and commits nothing")
    func anImportWhoseFilesFailCommitsNothing() throws {
        let source = try SyncStore.create(at: folder.path("A.store"), model: TestModels.workspace(), contentName: "W", peerID: "A")
        let data = value(7)
        try source.save(author: "t") { tx in _ = try tx.insert("Attachment", values: ["data": .binary(data)]) }
        let encoder = TransactionLogEncoder()
        try source.exportTransactions(after: 0, into: encoder, maxChanges: .max)
        var transactions: [SyncTransaction] = []
        let decoder = TransactionLogDecoder(model: source.model, peer: "A")
        try encoder.bytes.withUnsafeBytes { bytes in try decoder.forEachTransaction(in: bytes) { transactions.append($0) } }
        let digest = SHA256.hexDigest(of: data)
        try FileManager.default.createDirectory(atPath: store.blobs.directory.path, withIntermediateDirectories: true)
        let blocker = store.blobs.directory.path + "/" + digest.prefix(2)
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))

        let failure = try #require(throws: StoreError.self) { try store.applyRemoteTransactions(transactions) }
        #expect(failure.reason == .io)
        #expect(failure.description.contains("Attachment.data"), "\(failure)")
        #expect(try store.globalIDs(of: "Attachment").isEmpty)

        try FileManager.default.removeItem(atPath: blocker)
        let report = try store.applyRemoteTransactions(transactions)
        #expect(report.transactions["A"] == 1)
        #expect(try store.contentDigest() == source.contentDigest())
    }
}
