import Foundation
import SyncContainer
import Testing

/// ``LogArchive`` on archives large enough that libarchive reads them in several blocks: a
/// truncated one is refused naming the entry where reading stopped, and a restore keeps the files
/// that already hold exactly what the archive holds.
@Suite struct LogArchiveTests {
    /// A folder with three logs of incompressible bytes (so the archive is as large as they are).
    private func makeLogs() throws -> (folder: URL, files: [(entry: ArchiveManifest.Entry, source: String)]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        var files: [(entry: ArchiveManifest.Entry, source: String)] = []
        for index in 1...3 {
            let name = LogName(first: Int64(index), last: Int64(index)).fileName
            let source = folder.appendingPathComponent(name).path
            try Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: source))
            files.append((ArchiveManifest.Entry(path: "peers/A/logs/\(name)", kind: "log", sha256: "", bytes: 0, peer: "A",
                                                firstSequence: Int64(index), lastSequence: Int64(index)), source))
        }
        return (folder, files)
    }

    private func write(_ files: [(entry: ArchiveManifest.Entry, source: String)], to path: String) throws {
        let manifest = ArchiveManifest(format: ArchiveManifest.currentFormat, contentName: "Tests", modelHash: "00", by: "A",
                                       created: 0, watermark: ["A": 3], entries: [])
        try LogArchive.write(to: path, manifest: manifest, files: files)
    }

    @Test("a truncated archive is refused naming the entry reading stopped in or after")
    func truncatedNamesEntry() throws {
        let (folder, files) = try makeLogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("logs.tar.zst").path
        try write(files, to: archive)
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
        let (folder, files) = try makeLogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("logs.tar.zst").path
        try write(files, to: archive)
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
}
