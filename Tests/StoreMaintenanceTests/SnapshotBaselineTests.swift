import Foundation
import ObjectModel
@testable import SyncContainer
import Testing

/// ``SnapshotBaseline`` on files larger than its one-megabyte block: what is written comes back
/// byte for byte, and a changed or truncated file is refused without leaving anything unpacked.
@Suite struct SnapshotBaselineTests {
    private struct Fixture {
        let folder: URL
        let database: String
        let blobs: [BlobFile]
        let namespace: SyncNamespace
        var baselinePath: String { "\(namespace.baselineFolder)/\(header.fileName)" }
        let header: BaselineHeader

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// A 2.5 MiB "database" and three blob files (one empty, one of several blocks), named by their SHA-256.
    private func fixture() throws -> Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        func randomBytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        let database = folder.appendingPathComponent("source.store").path
        try randomBytes(5 << 19).write(to: URL(fileURLWithPath: database))
        var blobs: [BlobFile] = []
        for size in [0, 6_000, (3 << 20) + 17] {
            let data = randomBytes(size)
            let digest = SHA256.hexDigest(of: data)
            let path = folder.appendingPathComponent("blob-\(size)").path
            try data.write(to: URL(fileURLWithPath: path))
            blobs.append(BlobFile(digest: digest, path: path, bytes: Int64(size)))
        }
        let namespace = SyncNamespace(container: folder.appendingPathComponent("container").path, contentName: "Tests", modelHash: String(repeating: "ab", count: 32))
        let header = BaselineHeader(contentName: "Tests", modelHash: namespace.modelHash, peer: "A", vector: ["A": 7], latestClock: 1,
                                    records: 1, memberships: 0, tombstones: 0, reason: "rekey")
        return Fixture(folder: folder, database: database, blobs: blobs, namespace: namespace, header: header)
    }

    @Test("written, verified and unpacked: the database and every blob come back byte for byte")
    func roundTrip() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let (path, sha) = try fixture.namespace.publishSnapshotBaseline(header: fixture.header, database: fixture.database,
                                                                        databaseBytes: Int64(5 << 19), blobs: fixture.blobs)
        #expect(sha == SHA256.hexDigest(of: try Data(contentsOf: URL(fileURLWithPath: path))), "the SHA-256 is the whole file's")
        let (header, verifiedSHA) = try fixture.namespace.verifyBaseline(fixture.header.fileName)
        #expect(verifiedSHA == sha)
        #expect(header.format == BaselineHeader.snapshotFormat && header.blobFiles == 3 && header.snapshotBytes == Int64(5 << 19))
        #expect(fixture.namespace.baselineHeader(fixture.header.fileName)?.vector == ["A": 7])
        let unpacked = fixture.folder.appendingPathComponent("unpacked.store").path
        let (_, packed) = try fixture.namespace.extractSnapshotBaseline(fixture.header.fileName, database: unpacked)
        #expect(try Data(contentsOf: URL(fileURLWithPath: unpacked)) == Data(contentsOf: URL(fileURLWithPath: fixture.database)))
        #expect(packed.count == 3 && packed.path == path)
        for blob in fixture.blobs {
            #expect(try packed.read(digest: blob.digest) == Data(contentsOf: URL(fileURLWithPath: blob.path)))
        }
        #expect(!FileManager.default.fileExists(atPath: unpacked + ".blobs"), "no blob file is copied out")
        #expect(throws: POSIXError(.ENOENT)) { try packed.read(digest: String(repeating: "0", count: 64)) }
        #expect(throws: POSIXError(.EINVAL)) { try packed.read(digest: "sha256") }
        // Published again (a rerun): the file is kept, its checksum the same.
        #expect(try fixture.namespace.publishSnapshotBaseline(header: fixture.header, database: fixture.database,
                                                              databaseBytes: Int64(5 << 19), blobs: fixture.blobs).sha256 == sha)
    }

    @Test("a changed byte or a truncated file is refused, and nothing unpacked is left", arguments: ["changed", "truncated", "blob"])
    func damaged(kind: String) throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let (path, _) = try fixture.namespace.publishSnapshotBaseline(header: fixture.header, database: fixture.database,
                                                                      databaseBytes: Int64(5 << 19), blobs: fixture.blobs)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch kind {
        case "changed": bytes[bytes.count - 100] ^= 0x01
        case "truncated": bytes = bytes.prefix(bytes.count - 1_000)
        default:
            // The middle of the database part: the checksum catches it only at the end, after blobs were unpacked.
            bytes[bytes.count / 3] ^= 0x80
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: ContainerError.self) { try fixture.namespace.verifyBaseline(fixture.header.fileName) }
        let unpacked = fixture.folder.appendingPathComponent("unpacked.store").path
        #expect(throws: ContainerError.self) {
            try fixture.namespace.extractSnapshotBaseline(fixture.header.fileName, database: unpacked)
        }
        #expect(!FileManager.default.fileExists(atPath: unpacked))
        #expect(!FileManager.default.fileExists(atPath: unpacked + ".blobs"))
    }

    @Test("a blob changed in the baseline after it was checked is refused when read, not handed on")
    func blobChangedAfterTheCheck() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let (path, _) = try fixture.namespace.publishSnapshotBaseline(header: fixture.header, database: fixture.database,
                                                                      databaseBytes: Int64(5 << 19), blobs: fixture.blobs)
        let unpacked = fixture.folder.appendingPathComponent("unpacked.store").path
        let (_, packed) = try fixture.namespace.extractSnapshotBaseline(fixture.header.fileName, database: unpacked)
        // The last blob (3 MiB) ends just before the 32-byte checksum: change a byte in its middle, in place.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let offset = try handle.seekToEnd() - 32 - UInt64(fixture.blobs[2].bytes / 2)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0xff])
        try handle.close()
        #expect(throws: POSIXError(.EIO)) { try packed.read(digest: fixture.blobs[2].digest) }
        #expect(try packed.read(digest: fixture.blobs[1].digest) == Data(contentsOf: URL(fileURLWithPath: fixture.blobs[1].path)))
    }

    @Test("a source that changed size while copied is an error and publishes nothing")
    func sourceChanged() throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        #expect(throws: ContainerError.self) {
            try fixture.namespace.publishSnapshotBaseline(header: fixture.header, database: fixture.database, databaseBytes: Int64(5 << 19) + 1, blobs: fixture.blobs)
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.baselinePath))
        let temporaries = (try? FileManager.default.contentsOfDirectory(atPath: fixture.namespace.baselineFolder)) ?? []
        #expect(temporaries.isEmpty, "\(temporaries)")
    }

    @Test("a byte of the copy that differs from its source when read back is refused, and nothing is published",
          arguments: ["database", "blobs"])
    func copyReadBackDiffers(part: String) throws {
        let fixture = try fixture()
        defer { fixture.remove() }
        let error = #expect(throws: ContainerError.self) {
            _ = try SnapshotBaseline.write(header: fixture.header, database: fixture.database, databaseBytes: Int64(5 << 19),
                                           blobs: fixture.blobs, to: fixture.baselinePath) { written, temporary in
                guard written == part else { return }
                // A byte the disk gives back changed: in the database's copy, or in the last blob.
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
                defer { try? handle.close() }
                let offset: UInt64 = part == "database" ? 1 << 20 : try handle.seekToEnd() - 100
                try handle.seek(toOffset: offset)
                let byte = try handle.read(upToCount: 1) ?? Data()
                try handle.seek(toOffset: offset)
                handle.write(Data([~(byte.first ?? 0)]))
            }
        }
        #expect(error?.message == "does not read back as written")
        #expect(!FileManager.default.fileExists(atPath: fixture.baselinePath))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: fixture.namespace.baselineFolder)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
