import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// Symbolic links in a store's blob folder, made by hand and pointing outside the store's folder:
/// a backup copies only regular files and lists what it left out; a read refuses a link (or a
/// reference that is not a digest) instead of reading what it points at. Real links, real files.
@Suite struct BlobFolderLinkTests {
    let folder: TemporaryFolder
    let outside: TemporaryFolder
    let store: SyncStore

    init() throws {
        folder = try TemporaryFolder()
        outside = try TemporaryFolder()
        store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        try Data("secret outside the store".utf8).write(to: URL(fileURLWithPath: outside.path("secret.txt")))
        try FileManager.default.createDirectory(atPath: outside.path("dir"), withIntermediateDirectories: true)
        try Data("another secret".utf8).write(to: URL(fileURLWithPath: outside.path("dir/inside.txt")))
    }

    private func bigValue(_ seed: UInt8) -> Data { Data(repeating: seed, count: 6000) }

    @Test("a backup copies regular blob files only: a linked file and a linked folder are left out and listed, never followed")
    func backupLeavesLinksOut() throws {
        try store.save(author: "t") { tx in _ = try tx.insert("Attachment", values: ["data": .binary(bigValue(1))]) }
        let digest = SHA256.hexDigest(of: bigValue(1))
        let blobs = store.blobs.directory.path
        let linkedFile = "\(blobs)/\(digest.prefix(2))/\(String(repeating: "e", count: 64))"
        let linkedFolder = "\(blobs)/ee"
        try FileManager.default.createSymbolicLink(atPath: linkedFile, withDestinationPath: outside.path("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: linkedFolder, withDestinationPath: outside.path("dir"))

        var leftOut: [String] = []
        let copyPath = folder.path("backup.store")
        let files = try store.backup(to: copyPath) { leftOut.append($0) }
        #expect(files == 1)
        #expect(leftOut.count == 2, "\(leftOut)")
        #expect(leftOut.contains { $0.hasPrefix(linkedFile) && $0.contains("symbolic link") }, "\(leftOut)")
        #expect(leftOut.contains { $0.hasPrefix(linkedFolder) && $0.contains("symbolic link") }, "\(leftOut)")
        let copied = FileManager.default.enumerator(atPath: copyPath + ".blobs")?.compactMap { $0 as? String } ?? []
        #expect(copied.sorted() == [String(digest.prefix(2)), "\(digest.prefix(2))/\(digest)"], "\(copied)")
        // What the links point at is where it was, unchanged.
        #expect(try String(contentsOfFile: outside.path("secret.txt"), encoding: .utf8) == "secret outside the store")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path("dir")) == ["inside.txt"])
    }

    @Test("a blob folder that is itself a link: the backup is refused, and nothing of it is left")
    func linkedBlobFolder() throws {
        try FileManager.default.createSymbolicLink(atPath: store.blobs.directory.path, withDestinationPath: outside.path("dir"))
        let copyPath = folder.path("backup.store")
        do {
            try store.backup(to: copyPath)
            Issue.record("the backup followed the linked blob folder")
        } catch let error as StoreError {
            #expect(error.message.contains("symbolic link"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: copyPath))
        #expect(!FileManager.default.fileExists(atPath: copyPath + ".blobs"))
    }

    @Test("reading an external value whose file was replaced by a link is refused, not read through the link")
    func readThroughLink() throws {
        let id = try store.save(author: "t") { tx in try tx.insert("Attachment", values: ["data": .binary(bigValue(2))]) }
        let file = store.blobs.fileURL(forDigest: SHA256.hexDigest(of: bigValue(2))).path
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: outside.path("secret.txt"))
        #expect(throws: (any Error).self) { _ = try store.blobs.read(digest: SHA256.hexDigest(of: bigValue(2))) }
        #expect(throws: StoreError.self) { _ = try store.record(id) }
        // A digest that is not one names no file, whatever it holds.
        #expect(throws: (any Error).self) { _ = try store.blobs.read(digest: "../../../../etc/passwd") }
    }
}
