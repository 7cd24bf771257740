import Foundation
import ObjectModel
import Testing

@Suite("DurableFile: whole or absent, never over a file when told not to, no temporary left")
struct DurableFileTests {
    private let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "durable-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test("a write leaves the whole content under its name and nothing else, syncing or not")
    func writeIsComplete() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try DurableFile.write(bytes, to: folder + "/a.bin")
        try DurableFile.write(bytes, to: folder + "/b.bin", syncing: false)
        try DurableFile.write(Data(), to: folder + "/empty")
        #expect(try names() == ["a.bin", "b.bin", "empty"])
        #expect(FileManager.default.contents(atPath: folder + "/a.bin") == bytes)
        #expect(FileManager.default.contents(atPath: folder + "/b.bin") == bytes)
        #expect(FileManager.default.contents(atPath: folder + "/empty") == Data())
    }

    @Test("readAll gives a file whole or its first bytes, nil when there is none or a file stands for a folder of the path")
    func readAll() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = Data((0..<((3 << 20) + 5)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try DurableFile.write(bytes, to: folder + "/a.bin")
        #expect(try DurableFile.readAll(of: folder + "/a.bin").map { Data($0) } == bytes)
        #expect(try DurableFile.readAll(of: folder + "/a.bin", limit: 10) == Array(bytes.prefix(10)))
        #expect(try DurableFile.readAll(of: folder + "/a.bin", limit: 0) == [])
        #expect(try DurableFile.readAll(of: folder + "/a.bin", limit: 4 << 20)?.count == bytes.count)
        try DurableFile.write(Data(), to: folder + "/empty")
        #expect(try DurableFile.readAll(of: folder + "/empty") == [])
        #expect(try DurableFile.readAll(of: folder + "/missing") == nil)
        let failure = #expect(throws: DurableFile.Failure.self) { try DurableFile.readAll(of: folder) }
        #expect(failure?.code == EISDIR)
        #expect(try DurableFile.readAll(of: folder + "/a.bin/under-a-file") == nil)
    }

    @Test("readAll reads on past the size a file had when opened: the kernel's own files, which say 0",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func readAllOfAGrowingFile() throws {
        let status = try #require(try DurableFile.readAll(of: "/proc/self/status"))
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:") && status.count > 100)
        #expect(try DurableFile.readAll(of: "/proc/self/status", limit: 5) == Array("Name:".utf8))
    }

    @Test("replacing: false refuses an existing file with EEXIST and leaves it as it was; the default replaces")
    func noOverwrite() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/log"
        try DurableFile.write(Data("first".utf8), to: path, replacing: false)
        #expect {
            try DurableFile.write(Data("second".utf8), to: path, replacing: false)
        } throws: { error in (error as? DurableFile.Failure)?.code == EEXIST }
        #expect(FileManager.default.contents(atPath: path) == Data("first".utf8))
        let copied = folder + "/copied"
        try DurableFile.copy(path, to: copied, replacing: false)
        #expect(throws: DurableFile.Failure.self) { try DurableFile.copy(path, to: copied, replacing: false) }
        try DurableFile.write(Data("third".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("third".utf8))
        #expect(try names() == ["copied", "log"], "no temporary file is left, after a refusal either")
    }

    @Test("a copy streams a file larger than its buffer whole; a missing source is a Failure naming it")
    func copyIsComplete() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        try big.write(to: URL(fileURLWithPath: folder + "/source"))
        try DurableFile.copy(folder + "/source", to: folder + "/copy")
        #expect(FileManager.default.contents(atPath: folder + "/copy") == big)
        #expect {
            try DurableFile.copy(folder + "/nothing", to: folder + "/copy2")
        } throws: { error in (error as? DurableFile.Failure).map { $0.code == ENOENT && $0.path.hasSuffix("/nothing") } ?? false }
        #expect(try names() == ["copy", "source"])
    }

    @Test("publish puts a file made under a temporary name in place, never over another one when told not to")
    func publish() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/store"
        let temporary = DurableFile.temporaryPath(for: target)
        #expect(temporary.hasPrefix(folder + "/.store.") && temporary.hasSuffix(".tmp"))
        #expect(DurableFile.temporaryOwner(ofName: URL(fileURLWithPath: temporary).lastPathComponent).map { "\($0.file) \($0.pid)" } == "store \(getpid())")
        try Data("made by another library".utf8).write(to: URL(fileURLWithPath: temporary))
        try DurableFile.publish(temporary, as: target, replacing: false)
        #expect(FileManager.default.contents(atPath: target) == Data("made by another library".utf8))
        let second = DurableFile.temporaryPath(for: target)
        try Data("other".utf8).write(to: URL(fileURLWithPath: second))
        #expect(throws: DurableFile.Failure.self) { try DurableFile.publish(second, as: target, replacing: false) }
        #expect(FileManager.default.contents(atPath: target) == Data("made by another library".utf8))
        #expect(try names() == ["store"], "the refused temporary file is removed")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        try DurableFile.move(folder + "/sub", to: folder + "/.sub.aside")
        #expect(try names() == [".sub.aside", "store"])
    }

    @Test("temporary names: recognised with their file and process; abandoned ones of dead processes removed")
    func temporaryNames() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(DurableFile.temporaryOwner(ofName: ".notes.tar.zst.4242.3735928559.tmp").map { "\($0.file) \($0.pid)" } == "notes.tar.zst 4242")
        for name in ["notes.4242.1.tmp", ".4242.1.tmp", ".notes.x.1.tmp", ".notes.4242.tmp", ".notes.4242.1.tmpx", ".notes.0.1.tmp"] {
            #expect(DurableFile.temporaryOwner(ofName: name) == nil, "\(name)")
        }
        // pid 2^31-2 is never a live process here.
        let dead = ".a.log.2147483646.7.tmp", other = ".b.log.2147483646.7.tmp"
        for name in [dead, other, "a.log"] { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()) }
        DurableFile.removeAbandonedTemporaries(of: folder + "/a.log")
        #expect(try names() == [other, "a.log"])
        #expect(!DurableFile.isTemporaryOfLiveProcess(other))
        #expect(DurableFile.isTemporaryOfLiveProcess(".a.log.\(getpid()).9.tmp"))
    }
}
