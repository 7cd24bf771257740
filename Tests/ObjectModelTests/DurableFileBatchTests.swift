import Foundation
import ObjectModel
import Testing

@Suite("DurableFileBatch: a file gets its name only once written, a taken name keeps its file, nothing half-done is left")
struct DurableFileBatchTests {
    private let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "batch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
    }

    private func names(_ path: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    private func content(_ index: Int) -> Data {
        Data((0..<(5_000 + index * 97)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
    }

    @Test("finish leaves every file added whole under its name, across more files than the window, and nothing else",
          arguments: [0, Int.max / 2])
    func finishNamesEveryFile(othersDirtyLimit: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let batch = DurableFileBatch(window: 3, othersDirtyLimit: othersDirtyLimit)
        for index in 0..<10 {
            let target = index.isMultiple(of: 2) ? folder : folder + "/sub"
            try content(index).withUnsafeBytes { try batch.add($0, as: "\(target)/f\(index)") }
        }
        try batch.finish()
        #expect(try names(folder) == ["f0", "f2", "f4", "f6", "f8", "sub"])
        #expect(try names(folder + "/sub") == ["f1", "f3", "f5", "f7", "f9"], "no unnamed or temporary file is left")
        for index in 0..<10 {
            let target = index.isMultiple(of: 2) ? folder : folder + "/sub"
            #expect(FileManager.default.contents(atPath: "\(target)/f\(index)") == content(index))
        }
        // Without room for others' unwritten data, only the batch's files and folders are synced;
        // with all the room there is, the file system is flushed instead.
        if othersDirtyLimit == 0 {
            #expect(batch.fileByFileSyncs == 5 && batch.wholeFileSystemSyncs == 0, "four windows of files and the folders, one by one")
        } else {
            #expect(batch.wholeFileSystemSyncs == 5 && batch.fileByFileSyncs == 0, "four windows of files and the folders, by syncfs")
        }
        // The batch is reusable after finish.
        try content(20).withUnsafeBytes { try batch.add($0, as: folder + "/f20") }
        try batch.finish()
        #expect(FileManager.default.contents(atPath: folder + "/f20") == content(20))
    }

    @Test("a name already taken keeps its file: content-addressed files are never rewritten")
    func takenNameKeepsItsFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DurableFile.write(Data("first".utf8), to: folder + "/same")
        let batch = DurableFileBatch()
        try Data("second".utf8).withUnsafeBytes { try batch.add($0, as: folder + "/same") }
        try Data("third".utf8).withUnsafeBytes { try batch.add($0, as: folder + "/new") }
        try Data("fourth".utf8).withUnsafeBytes { try batch.add($0, as: folder + "/new") }
        try batch.finish()
        #expect(FileManager.default.contents(atPath: folder + "/same") == Data("first".utf8))
        #expect(FileManager.default.contents(atPath: folder + "/new") == Data("third".utf8), "the first of two adds under one name wins")
        #expect(try names(folder) == ["new", "same", "sub"])
    }

    @Test("a batch given up before finish leaves none of its unnamed files; a missing folder is ENOENT naming the file")
    func abandonedBatchLeavesNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let batch = DurableFileBatch(window: 8)
            for index in 0..<4 { try content(index).withUnsafeBytes { try batch.add($0, as: folder + "/sub/g\(index)") } }
        }
        #expect(try names(folder + "/sub").isEmpty, "files not yet named vanish with the batch")
        let batch = DurableFileBatch()
        #expect {
            try content(0).withUnsafeBytes { try batch.add($0, as: folder + "/missing/h0") }
        } throws: { error in (error as? DurableFile.Failure).map { $0.code == ENOENT && $0.path.hasSuffix("/missing/h0") } ?? false }
        try batch.finish()
        #expect(try names(folder) == ["sub"])
    }
}
