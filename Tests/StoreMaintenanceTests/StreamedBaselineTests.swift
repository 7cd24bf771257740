import Foundation
import ObjectModel
@testable import SyncContainer
import Testing

/// A format-1 baseline written a part at a time (`account` baselines): one zstd frame per part,
/// read back a part at a time, still one body to a reader that reads it whole, and refused when
/// damaged, truncated or inconsistent with its header.
@Suite struct StreamedBaselineTests {
    private let hash = String(repeating: "ab", count: 32)

    /// A namespace in a fresh folder, and a scratch file beside it.
    private func namespace() throws -> (SyncNamespace, scratch: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sk-streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let namespace = SyncNamespace(container: folder.appendingPathComponent("container").path, contentName: "Sim", modelHash: hash)
        return (namespace, folder.appendingPathComponent(".scratch").path, folder)
    }

    /// Three parts: text that compresses, bytes that do not, and a small one.
    private var parts: [[UInt8]] {
        [Array(String(repeating: "a record of a speech ", count: 20_000).utf8),
         (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) },
         Array("the end".utf8)]
    }

    private func publish(_ parts: [[UInt8]], in namespace: SyncNamespace, scratch: String) throws -> (path: String, sha256: String) {
        try namespace.publishBaseline(scratch: scratch, header: {
            BaselineHeader(contentName: "Sim", modelHash: hash, peer: "P1", vector: ["P1": 7], latestClock: 9,
                           records: 3, memberships: 0, tombstones: 0, reason: "account")
        }, body: { sink in
            for part in parts { try sink(part) }
        })
    }

    @Test func writtenAPartAtATimeAndReadBackTheSame() throws {
        let (namespace, scratch, folder) = try namespace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, sha) = try publish(parts, in: namespace, scratch: scratch)
        #expect(!FileManager.default.fileExists(atPath: scratch), "the scratch file is removed")
        let name = URL(fileURLWithPath: path).lastPathComponent
        var read: [[UInt8]] = []
        let header = try namespace.readBaseline(name) { read.append($0) }
        #expect(read == parts, "one part per frame, in order")
        #expect(header.compression == "zstd" && header.rawBytes == parts.map(\.count).reduce(0, +) && header.vector == ["P1": 7])
        #expect(try namespace.verifyBaseline(name).sha256 == sha)
        // A reader that reads the file whole (an older storekeep) gets the parts as one body.
        let (_, whole) = try FramedFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), signature: SyncNamespace.baselineSignature,
                                               as: BaselineHeader.self, what: "baseline", path: path)
        #expect(whole == parts.flatMap { $0 })
        // Published again under the same name (a rerun): kept, same checksum.
        #expect(try publish(parts, in: namespace, scratch: scratch).sha256 == sha)
    }

    @Test(arguments: ["flipped", "truncated", "frames past the header's size"])
    func damageIsRefused(_ damage: String) throws {
        let (namespace, scratch, folder) = try namespace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, _) = try publish(parts, in: namespace, scratch: scratch)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch damage {
        case "flipped": bytes[bytes.count / 2] ^= 0x40
        case "truncated": bytes = bytes.prefix(bytes.count - 100)
        default:
            // The header says one byte less than the frames give; the checksum made to match.
            let length = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            let text = String(decoding: bytes[12..<(12 + length)], as: UTF8.self)
            let raw = parts.map(\.count).reduce(0, +)
            let changed = Data(text.replacingOccurrences(of: "\"rawBytes\":\(raw)", with: "\"rawBytes\":\(raw - 1)").utf8)
            var rebuilt = Data(bytes[0..<8])
            withUnsafeBytes(of: UInt32(changed.count).littleEndian) { rebuilt.append(contentsOf: $0) }
            rebuilt += changed + bytes[(12 + length)..<(bytes.count - 32)]
            var digest = SHA256()
            digest.update(rebuilt)
            bytes = rebuilt + Data(digest.finalize())
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: ContainerError.self) { _ = try namespace.readBaseline(URL(fileURLWithPath: path).lastPathComponent) { _ in } }
        if damage != "frames past the header's size" {
            #expect(throws: ContainerError.self) { _ = try namespace.verifyBaseline(URL(fileURLWithPath: path).lastPathComponent) }
        }
    }
}
