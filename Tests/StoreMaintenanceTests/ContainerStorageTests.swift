import Foundation
import SyncContainer
import Testing

/// A container kept somewhere other than a folder: every read and write of a namespace goes
/// through its ``ContainerStorage`` (DESIGN §6), here one in memory, and the publish-once rule
/// holds through it.
@Suite struct ContainerStorageTests {
    /// A container in memory, as an object store would keep one: keys, whole objects.
    final class MemoryStorage: ContainerStorage, @unchecked Sendable {
        private let lock = NSLock()
        private var objects: [String: Data] = [:]

        var keys: [String] { lock.withLock { objects.keys.sorted() } }

        func list(_ folder: String) throws -> [String] {
            lock.withLock {
                Set(objects.keys.compactMap { key -> String? in
                    guard key.hasPrefix(folder + "/") else { return nil }
                    return key.dropFirst(folder.count + 1).split(separator: "/").first.map(String.init)
                }).sorted()
            }
        }

        func read(_ path: String, limit: Int?) throws -> Data? {
            lock.withLock {
                guard let data = objects[path] else { return nil }
                return limit.map { data.prefix($0) } ?? data
            }
        }

        func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws {
            try lock.withLock {
                if !replacing, objects[path] != nil {
                    throw ContainerError(.wouldOverwrite, path: path, message: "exists already")
                }
                objects[path] = Data(bytes)
            }
        }

        func delete(_ path: String) throws -> Bool { lock.withLock { objects.removeValue(forKey: path) != nil } }

        func attributes(of path: String) -> (bytes: Int64, modified: Date)? {
            lock.withLock { objects[path].map { (Int64($0.count), Date()) } }
        }
    }

    @Test func aNamespaceReadsAndWritesOnlyThroughItsStorage() throws {
        let storage = MemoryStorage()
        let container = "/nonexistent-\(UUID().uuidString)"
        let hash = String(repeating: "ab", count: 32)
        let namespace = SyncNamespace(container: container, contentName: "Sim", modelHash: hash, storage: storage)
        let header = LogHeader(contentName: "Sim", modelHash: hash, peer: "P1", firstSequence: 1, lastSequence: 2,
                               transactions: 2, changes: 3, latestClock: 42)
        let path = try namespace.publishLog(header: header, body: [1, 2, 3, 4])
        try namespace.write(PeerManifest(peer: "P1", contentName: "Sim", modelHash: hash, modelVersion: "1", storeFormat: 4,
                                         exported: 2, imported: [:], syncEnabled: true, lastSeen: Date(), account: nil))
        #expect(!FileManager.default.fileExists(atPath: container), "nothing on the file system")
        #expect(storage.keys.contains(path))
        #expect(try namespace.peers() == ["P1"])
        let logs = try namespace.logs(of: "P1").logs
        #expect(logs.map(\.fileName) == ["00000000000000000001-00000000000000000002.sklog"])
        let (read, body) = try namespace.readLog(logs[0], of: "P1")
        #expect(read.lastSequence == 2 && body == [1, 2, 3, 4])
        #expect(try namespace.manifest(of: "P1")?.exported == 2)
        // A log is published once: a second publish of the same range is refused and changes nothing.
        #expect(throws: ContainerError.self) { try namespace.publishLog(header: header, body: [9]) }
        #expect(try namespace.readLog(logs[0], of: "P1").1 == [1, 2, 3, 4])
        // Another model version of the same content name is seen through the storage too.
        let other = SyncNamespace(container: container, contentName: "Sim", modelHash: String(repeating: "cd", count: 32), storage: storage)
        try other.write(PeerManifest(peer: "P9", contentName: "Sim", modelHash: other.modelHash, modelVersion: "2", storeFormat: 4,
                                     exported: 0, imported: [:], syncEnabled: true, lastSeen: Date(), account: nil))
        #expect(try namespace.otherModels() == [other.modelHash: ["P9"]])
        // A damaged log is moved aside (readers skip it) and can be written again.
        try namespace.moveAside(logs[0], of: "P1")
        #expect(try namespace.logs(of: "P1").logs.isEmpty)
        try namespace.publishLog(header: header, body: [5])
        #expect(try namespace.remove(path))
        #expect(try !namespace.remove(path))
    }

    @Test func aFolderReadsWholeFilesAsBytesAndNamesOneItCannotRead() throws {
        let folder = NSTemporaryDirectory() + "folder-storage-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let storage = FolderStorage()
        let bytes = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try bytes.withUnsafeBytes { try storage.write($0, to: folder + "/a.bin", replacing: false) }
        #expect(try storage.readBytes(folder + "/a.bin") == bytes)
        #expect(try storage.read(folder + "/a.bin", limit: 3) == Data(bytes.prefix(3)))
        #expect(try storage.readBytes(folder + "/missing") == nil)
        let error = #expect(throws: ContainerError.self) { try storage.readBytes(folder) }
        #expect(error?.reason == .io && error?.path == folder)
    }

    /// Whether the temporary folder's file system is one whose identities ``FolderStorage`` trusts.
    static let temporaryFolderKeepsIdentities: Bool = {
        let probe = NSTemporaryDirectory() + "identity-probe-\(UUID().uuidString)"
        defer { unlink(probe) }
        return FileManager.default.createFile(atPath: probe, contents: Data()) && FolderStorage().fileIdentity(probe) != nil
    }()

    @Test("a file's identity changes when it is written in place with the same size or replaced, and there is none for what is not a regular file",
          .enabled(if: temporaryFolderKeepsIdentities, "the temporary folder is on a file system whose inodes and change times are not trusted"))
    func identityChangesWithEveryWrite() throws {
        let folder = NSTemporaryDirectory() + "folder-identity-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let storage = FolderStorage()
        try Data("first".utf8).withUnsafeBytes { try storage.write($0, to: folder + "/a.log", replacing: false) }
        let first = try #require(storage.fileIdentity(folder + "/a.log"))
        #expect(storage.fileIdentity(folder + "/a.log") == first, "the same while untouched")
        let handle = try #require(FileHandle(forUpdatingAtPath: folder + "/a.log"))
        try handle.write(contentsOf: Data("F".utf8))
        try handle.close()
        let written = try #require(storage.fileIdentity(folder + "/a.log"))
        #expect(written != first, "a write in place of the same size")
        try Data("other".utf8).withUnsafeBytes { try storage.write($0, to: folder + "/a.log", replacing: true) }
        #expect(storage.fileIdentity(folder + "/a.log") != written, "replaced by a rename")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.log", withDestinationPath: folder + "/a.log")
        #expect(storage.fileIdentity(folder + "/link.log") == nil)
        #expect(storage.fileIdentity(folder) == nil)
        #expect(storage.fileIdentity(folder + "/missing.log") == nil)
    }
}
