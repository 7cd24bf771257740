import Foundation
import ObjectModel
import Testing

/// ``DurableFile/publishTogether(_:replacing:othersDirtyLimit:)``: staged files named together,
/// whether the file system is synced once (`syncfs`) or each file and folder is (limit 0).
@Suite("DurableFile.publishTogether: every file named with its content, a taken name refused, the rest left to the caller")
struct DurableFileTogetherTests {
    private let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "together-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
    }

    /// Three staged files, two in the folder and one in `sub`, with distinct contents.
    private func staged() throws -> [(temporary: String, path: String, bytes: Data)] {
        try ["a.log", "sub/b.log", "c.log"].enumerated().map { index, name in
            let path = "\(folder)/\(name)"
            let bytes = Data((0..<(50_000 + index)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) })
            let temporary = try DurableFile.stage(path, syncing: false) { sink in try bytes.withUnsafeBytes { try sink($0) } }
            return (temporary, path, bytes)
        }
    }

    /// Every file and folder under the test folder, temporaries included.
    private func everything() -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).sorted()
    }

    @Test("each staged file gets its name and content, no temporary is left", arguments: [32 << 20, 0])
    func publishesEveryFile(othersDirtyLimit: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try staged()
        try DurableFile.publishTogether(files.map { ($0.temporary, $0.path) }, replacing: false, othersDirtyLimit: othersDirtyLimit)
        for file in files { #expect(FileManager.default.contents(atPath: file.path) == file.bytes) }
        #expect(everything() == ["a.log", "c.log", "sub", "sub/b.log"])
    }

    @Test("replacing: false stops at a taken name with EEXIST: it keeps its file, those before are named, those after stay staged")
    func takenNameStops() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try staged()
        let other = Data("already here".utf8)
        try DurableFile.write(other, to: files[1].path)
        #expect {
            try DurableFile.publishTogether(files.map { ($0.temporary, $0.path) }, replacing: false)
        } throws: { error in
            (error as? DurableFile.Failure)?.code == EEXIST && (error as? DurableFile.Failure)?.path == files[1].path
        }
        #expect(FileManager.default.contents(atPath: files[0].path) == files[0].bytes)
        #expect(FileManager.default.contents(atPath: files[1].path) == other)
        #expect(!FileManager.default.fileExists(atPath: files[2].path))
        #expect(FileManager.default.contents(atPath: files[2].temporary) == files[2].bytes, "left to the caller to remove")
        #expect(!FileManager.default.fileExists(atPath: files[0].temporary))
    }

    @Test("syncTogether makes the staged files durable and names none; the publish after it names them all", arguments: [32 << 20, 0])
    func syncedAheadOfThePublish(othersDirtyLimit: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try staged()
        let wholeFileSystems = try DurableFile.syncTogether(files.map { ($0.temporary, $0.path) }, othersDirtyLimit: othersDirtyLimit)
        // One file system holds the test folder: synced once (unless others have much unwritten
        // data at the moment, as under a parallel test run), or, with limit 0, each file fsynced.
        #expect(wholeFileSystems.count <= (othersDirtyLimit == 0 ? 0 : 1))
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(FileManager.default.contents(atPath: file.temporary) == file.bytes)
        }
        try DurableFile.publishTogether(files.map { ($0.temporary, $0.path) }, replacing: false, othersDirtyLimit: othersDirtyLimit)
        for file in files { #expect(FileManager.default.contents(atPath: file.path) == file.bytes) }
        #expect(everything() == ["a.log", "c.log", "sub", "sub/b.log"])
    }

    @Test("syncTogether of a temporary that is gone fails with ENOENT naming the file it was for")
    func syncOfAGoneTemporary() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try staged()
        unlink(files[2].temporary)
        #expect {
            try DurableFile.syncTogether(files.map { ($0.temporary, $0.path) })
        } throws: { error in
            (error as? DurableFile.Failure)?.code == ENOENT && (error as? DurableFile.Failure)?.path == files[2].path
        }
    }

    @Test("a file staged with its writeback started every 64 KiB holds exactly what was produced",
          arguments: [0, 1, 65_535, 65_536, 200_001])
    func stagedWithWritebackAsItIsWritten(bytes count: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/w.log"
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        // Handed over in blocks of 10,000 bytes, so that most writebacks start between blocks' ends.
        let temporary = try DurableFile.stage(path, syncing: false, writebackEvery: 65_536) { sink in
            try bytes.withUnsafeBytes { all in
                for start in stride(from: 0, to: all.count, by: 10_000) {
                    try sink(UnsafeRawBufferPointer(rebasing: all[start..<min(start + 10_000, all.count)]))
                }
            }
        }
        #expect(FileManager.default.contents(atPath: temporary) == bytes)
        try DurableFile.publish(temporary, as: path, replacing: false)
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test("replacing: true puts every file in place over what had the name")
    func replaces() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try staged()
        try DurableFile.write(Data("old".utf8), to: files[1].path)
        try DurableFile.publishTogether(files.map { ($0.temporary, $0.path) }, replacing: true)
        for file in files { #expect(FileManager.default.contents(atPath: file.path) == file.bytes) }
        #expect(everything() == ["a.log", "c.log", "sub", "sub/b.log"])
    }
}
