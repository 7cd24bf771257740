import Foundation
import ObjectModel
import SyncContainer
import Testing

/// ``LogArchive`` on archives large enough that libarchive reads them in several blocks: a
/// truncated one is refused naming the entry where reading stopped, and a restore keeps the files
/// that already hold exactly what the archive holds.
@Suite struct LogArchiveTests {
    /// A folder with logs of `sizes` random bytes (incompressible: the archive is as large as they
    /// are), and an archive of them, `logs.tar.zst`, in it. By default three logs; the other set
    /// is a small log and one of several MiB that is not a multiple of the 1 MiB block, in that
    /// order (damage to the big one comes after the small one is read).
    private func archivedLogs(sizes: [Int] = [3 << 20, 3 << 20, 3 << 20]) throws
        -> (folder: URL, files: [(entry: ArchiveManifest.Entry, source: String)], archive: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [(entry: ArchiveManifest.Entry, source: String)] = []
        for (index, size) in zip(1..., sizes) {
            let name = LogName(first: Int64(index), last: Int64(index)).fileName
            let source = folder.appendingPathComponent(name).path
            try randomBytes(size).write(to: URL(fileURLWithPath: source))
            files.append((ArchiveManifest.Entry(path: "peers/A/logs/\(name)", kind: "log", sha256: "", bytes: 0, peer: "A",
                                                firstSequence: Int64(index), lastSequence: Int64(index)), source))
        }
        let archive = folder.appendingPathComponent("logs.tar.zst").path
        try write(files, to: archive)
        return (folder, files, archive)
    }

    /// The small log and the big one (``archivedLogs(sizes:)``).
    private static let bigSizes = [200_000, (5 << 20) + 12_345]

    private func write(_ files: [(entry: ArchiveManifest.Entry, source: String)], to path: String) throws {
        let manifest = ArchiveManifest(format: ArchiveManifest.currentFormat, contentName: "Tests", modelHash: "00", by: "A",
                                       created: 0, watermark: ["A": 3], entries: [])
        _ = try LogArchive.write(to: path, manifest: manifest, files: files)
    }

    @Test("a truncated archive is refused naming the entry reading stopped in or after")
    func truncatedNamesEntry() throws {
        let (folder, _, archive) = try archivedLogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: archive))
        do {
            try LogArchive.verify(archive)
            Issue.record("a truncated archive verified")
        } catch let error as ContainerError {
            #expect("\(error)".contains("peers/A/logs/"), "the entry is named: \(error)")
        }
    }

    @Test("restore keeps files that already hold the entry, and refuses one with other content before writing anything")
    func restoreKeepsIdenticalFiles() throws {
        let (folder, files, archive) = try archivedLogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("container").path
        try LogArchive.restore(archive, into: target, force: false)
        let first = "\(target)/\(files[0].entry.path)", last = "\(target)/\(files[2].entry.path)"
        try FileManager.default.removeItem(atPath: last)
        try LogArchive.restore(archive, into: target, force: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: last)) == Data(contentsOf: URL(fileURLWithPath: files[2].source)))
        try FileManager.default.removeItem(atPath: last)
        try Data("other".utf8).write(to: URL(fileURLWithPath: first))
        #expect(throws: ContainerError.self) { try LogArchive.restore(archive, into: target, force: false) }
        #expect(!FileManager.default.fileExists(atPath: last), "nothing was written")
    }

    @Test("restore removes the temporaries a killed process left in the folders it writes, and keeps a live one's")
    func restoreRemovesLeftoversOfKilledWriters() throws {
        let (folder, files, archive) = try archivedLogs(sizes: [1_000, 2_000])
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("container").path
        let logs = URL(fileURLWithPath: "\(target)/\(files[0].entry.path)").deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let name = URL(fileURLWithPath: files[0].entry.path).lastPathComponent
        let killed = "\(logs)/.\(name).\(finished.processIdentifier).12345.tmp"
        let live = "\(logs)/.\(name).1.67890.tmp"
        try Data("partial".utf8).write(to: URL(fileURLWithPath: killed))
        try Data("being written".utf8).write(to: URL(fileURLWithPath: live))
        try LogArchive.restore(archive, into: target, force: false)
        #expect(!FileManager.default.fileExists(atPath: killed), "the leftover of a process that is gone is removed")
        #expect(FileManager.default.fileExists(atPath: live), "process 1 runs: its temporary may still be published")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(target)/\(files[0].entry.path)")) == Data(contentsOf: URL(fileURLWithPath: files[0].source)))
    }

    /// `count` random bytes (incompressible: the archive is as large as they are).
    private func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var words = (0..<(count / 8 + 1)).map { _ in generator.next() }
        return words.withUnsafeMutableBytes { Data($0.prefix(count)) }
    }

    /// Every file and folder under `folder` (names beginning with `.` included), relative to it.
    private func everything(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    @Test("an entry larger than a block, not a multiple of it, round-trips byte for byte through write, verify and restore")
    func bigEntryRoundTrips() throws {
        let (folder, files, archive) = try archivedLogs(sizes: Self.bigSizes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try LogArchive.verify(archive)
        #expect(manifest.entries.map(\.bytes) == Self.bigSizes.map(Int64.init))
        let target = folder.appendingPathComponent("container").path
        #expect(try LogArchive.restore(archive, into: target, force: false) == manifest)
        for (entry, source) in files {
            let original = try Data(contentsOf: URL(fileURLWithPath: source))
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(target)/\(entry.path)")) == original)
            #expect(manifest.entries.first { $0.path == entry.path }?.sha256 == SHA256.hexDigest(of: original))
        }
        #expect(everything(under: target).filter { $0.hasSuffix(".tmp") }.isEmpty, "no temporary left")
        // A rerun keeps the files that hold the entries already; --force writes them again.
        try LogArchive.restore(archive, into: target, force: false)
        try LogArchive.restore(archive, into: target, force: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(target)/\(files[1].entry.path)")) == Data(contentsOf: URL(fileURLWithPath: files[1].source)))
    }

    @Test("a damaged or truncated archive restores nothing: no file, no temporary, no folder", arguments: ["flipped", "truncated"])
    func damagedArchiveRestoresNothing(damage: String) throws {
        let (folder, files, archive) = try archivedLogs(sizes: Self.bigSizes)
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        if damage == "flipped" {
            // In the middle of the big entry, which follows the small one.
            let middle = bytes.count * 3 / 4
            for offset in middle..<(middle + 16) { bytes[offset] ^= 0xff }
        } else {
            bytes = bytes.prefix(bytes.count * 3 / 4)
        }
        try bytes.write(to: URL(fileURLWithPath: archive))
        let container = folder.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        let target = "\(container)/Tests/00"
        do {
            try LogArchive.restore(archive, into: target, force: false)
            Issue.record("a \(damage) archive was restored")
        } catch let error as ContainerError {
            #expect(error.reason == .damagedArchive)
            #expect("\(error)".contains(files[1].entry.path), "the entry is named: \(error)")
        }
        #expect(everything(under: container).isEmpty, "nothing left in the container: \(everything(under: container))")
    }

    /// The folder storage, except that it cannot make staged files durable (a share whose flush fails).
    private struct UnflushableStorage: ContainerStorage {
        let folder = FolderStorage()
        func list(_ path: String) throws -> [String] { try folder.list(path) }
        func read(_ path: String, limit: Int?) throws -> Data? { try folder.read(path, limit: limit) }
        func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws { try folder.write(bytes, to: path, replacing: replacing) }
        func stage(_ path: String, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String {
            try folder.stage(path, from: produce)
        }
        func publish(staged: String, as path: String, replacing: Bool) throws { try folder.publish(staged: staged, as: path, replacing: replacing) }
        func publish(staged files: [(staged: String, path: String)], replacing: Bool) throws { try folder.publish(staged: files, replacing: replacing) }
        func makeDurable(staged files: [(staged: String, path: String)]) throws {
            throw ContainerError(.io, path: files[0].path, message: "cannot be flushed", hint: "")
        }
        func discard(staged: String) { folder.discard(staged: staged) }
        func delete(_ path: String) throws -> Bool { try folder.delete(path) }
        func attributes(of path: String) -> (bytes: Int64, modified: Date)? { folder.attributes(of: path) }
    }

    @Test("a restore whose staged entries cannot be made durable fails with that error and leaves nothing")
    func unflushableEntriesRestoreNothing() throws {
        let (folder, files, archive) = try archivedLogs(sizes: Self.bigSizes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = folder.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        let target = "\(container)/Tests/00"
        do {
            try LogArchive.restore(archive, into: target, force: false, storage: UnflushableStorage())
            Issue.record("entries that could not be made durable were published")
        } catch let error as ContainerError {
            #expect(error.reason == .io && error.path == "\(target)/\(files[0].entry.path)", "\(error)")
        }
        #expect(everything(under: container).isEmpty, "nothing left in the container: \(everything(under: container))")
    }

    @Test("restore over a file with other content, without --force, refuses and writes nothing")
    func restoreRefusesOtherContent() throws {
        let (folder, files, archive) = try archivedLogs(sizes: Self.bigSizes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("container").path
        let other = "\(target)/\(files[1].entry.path)"
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: other).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try Data("other".utf8).write(to: URL(fileURLWithPath: other))
        do {
            try LogArchive.restore(archive, into: target, force: false)
            Issue.record("a file with other content was overwritten")
        } catch let error as ContainerError {
            #expect(error.reason == .wouldOverwrite)
        }
        #expect(everything(under: target) == ["peers", "peers/A", "peers/A/logs", "peers/A/logs/\(files[1].entry.path.split(separator: "/").last!)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == Data("other".utf8))
        try LogArchive.restore(archive, into: target, force: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == Data(contentsOf: URL(fileURLWithPath: files[1].source)))
    }

    @Test("a streaming write or staging whose producer throws leaves no file and no temporary")
    func throwingProducerLeavesNothing() throws {
        struct Stop: Error {}
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-write-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let storage = FolderStorage()
        let block = randomBytes(1 << 20)
        let producer: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void = { sink in
            try block.withUnsafeBytes { try sink($0) }
            throw Stop()
        }
        #expect(throws: Stop.self) { try storage.write(to: "\(folder)/log.sklog", replacing: false, from: producer) }
        #expect(throws: Stop.self) { try storage.stage("\(folder)/log.sklog", from: producer) }
        #expect(everything(under: folder).isEmpty)
        // Written whole, it reads back block by block as it was written.
        try storage.write(to: "\(folder)/log.sklog", replacing: false) { sink in
            for _ in 0..<3 { try block.withUnsafeBytes { try sink($0) } }
        }
        var read = Data()
        #expect(try storage.read("\(folder)/log.sklog", inBlocksOf: 100_000) { read.append(contentsOf: $0) })
        #expect(read == block + block + block)
        #expect(try !storage.read("\(folder)/none", inBlocksOf: 100_000) { _ in })
        #expect(everything(under: folder) == ["log.sklog"])
        #expect(throws: ContainerError.self) { try storage.write(to: "\(folder)/log.sklog", replacing: false) { sink in try sink(UnsafeRawBufferPointer(start: nil, count: 0)) } }
    }
}
