import Foundation
import ObjectModel
import SyncContainer
import Testing

/// An archive repacked by another tar: GNU tar writes a log full of zeros as a sparse entry (its
/// holes left out of the archive). ``LogArchive`` reads entries from libarchive's own buffers,
/// block by block with their offsets; the holes must come back as the zeros they stand for.
@Suite struct ForeignTarArchiveTests {
    /// Runs `command` through the shell in `folder`; its standard output.
    private func shell(_ command: String, in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command)")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new folder with the log `peers/A/logs/<first log name>` under `source` (made by `writeLog`,
    /// which is given its path), a manifest listing it with `sha256` and `bytes`, and the archive of
    /// both that GNU tar writes with `--sparse` (and compresses through the zstd program).
    private func repackedBySparseTar(sha256: String, bytes: Int64, writeLog: (URL) throws -> Void)
        throws -> (folder: URL, archive: String, entry: ArchiveManifest.Entry, manifest: ArchiveManifest) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-tar-\(UUID().uuidString)")
        var made = false
        defer { if !made { try? FileManager.default.removeItem(at: folder) } }
        let source = folder.appendingPathComponent("source")
        let name = LogName(first: 1, last: 1).fileName
        let logs = source.appendingPathComponent("peers/A/logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try writeLog(logs.appendingPathComponent(name))
        let entry = ArchiveManifest.Entry(path: "peers/A/logs/\(name)", kind: "log", sha256: sha256, bytes: bytes,
                                          peer: "A", firstSequence: 1, lastSequence: 1)
        let manifest = ArchiveManifest(format: ArchiveManifest.currentFormat, contentName: "Tests", modelHash: "00", by: "A",
                                       created: 0, watermark: ["A": 1], entries: [entry])
        try JSONEncoder().encode(manifest).write(to: source.appendingPathComponent(ArchiveManifest.entryName))
        let archive = folder.appendingPathComponent("repacked.tar.zst").path
        _ = try shell("tar --sparse --format=pax --zstd -cf '\(archive)' '\(ArchiveManifest.entryName)' '\(entry.path)'", in: source)
        made = true
        return (folder, archive, entry, manifest)
    }

    /// GNU tar (Debian's own) and the zstd program (installed by `make test`).
    @Test("a log GNU tar wrote as a sparse entry verifies and restores byte for byte, its holes as zeros")
    func sparseEntryRestoresItsHoles() throws {
        // Data, a 3 MiB hole, data, and a 2 MiB hole at the end.
        let size = (5 << 20) + 8_192
        let head = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        let middle = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })
        var original = Data(count: size)
        original.replaceSubrange(0..<4_096, with: head)
        original.replaceSubrange((3 << 20)..<((3 << 20) + 4_096), with: middle)
        let (folder, archive, entry, manifest) = try repackedBySparseTar(sha256: SHA256.hexDigest(of: original), bytes: Int64(size)) { log in
            #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
            let handle = try FileHandle(forWritingTo: log)
            try handle.write(contentsOf: head)
            try handle.seek(toOffset: 3 << 20)
            try handle.write(contentsOf: middle)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            #expect(try Data(contentsOf: log) == original)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        // The archive does hold a sparse entry: GNU tar's pax keys name its map.
        #expect(try shell("zstd -dc '\(archive)' | grep -c -a 'GNU.sparse'", in: folder).trimmingCharacters(in: .whitespacesAndNewlines) != "0")

        #expect(try LogArchive.verify(archive) == manifest)
        let target = folder.appendingPathComponent("container").path
        try LogArchive.restore(archive, into: target, force: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(target)/\(entry.path)")) == original)
    }

    @Test("an entry that stands for more than its manifest says (a 1 GiB hole listed as 8 KiB) is refused at once, and nothing is left")
    func oversizedEntryIsRefused() throws {
        let listed = Data(repeating: 1, count: 8_192)
        let (folder, archive, _, _) = try repackedBySparseTar(sha256: SHA256.hexDigest(of: listed), bytes: Int64(listed.count)) { log in
            #expect(FileManager.default.createFile(atPath: log.path, contents: listed))
            let handle = try FileHandle(forWritingTo: log)
            try handle.truncate(atOffset: 1 << 30)
            try handle.close()
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("container")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        #expect {
            try LogArchive.restore(archive, into: target.path, force: false)
        } throws: { error in
            (error as? ContainerError)?.reason == .damagedArchive && "\(error)".contains("larger than its manifest says")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "nothing restored, no folder left")
    }
}
