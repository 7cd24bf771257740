import Foundation
import SyncContainer
import Testing

/// Removing many files at once (`archive` removing the logs it archived): every file goes, each
/// one reported as it goes, and a stop part-way leaves the files not yet reached, for the same
/// storage in a folder (one flush per folder) and in memory (one removal after another).
@Suite struct StorageBatchDeleteTests {
    /// A storage and the folder its paths live under.
    private func storages() throws -> [(storage: any ContainerStorage, root: String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sk-batch-delete-\(UUID().uuidString)").path
        return [(FolderStorage(), folder), (ContainerStorageTests.MemoryStorage(), "/memory")]
    }

    /// Writes one small file per name under `root` (two folders), returning their paths.
    private func files(_ names: [String], under root: String, in storage: any ContainerStorage) throws -> [String] {
        try names.map { name in
            let path = "\(root)/\(name)"
            try storage.write(Data(name.utf8), to: path, replacing: false)
            return path
        }
    }

    @Test func everyFileGoesAndEachIsReported() throws {
        for (storage, root) in try storages() {
            defer { try? FileManager.default.removeItem(atPath: root) }
            let paths = try files(["a/1.sklog", "b/1.sklog", "a/2.sklog"], under: root, in: storage)
            let absent = "\(root)/a/never-there.sklog"
            var reported: [String] = []
            let count = try storage.delete([paths[0], absent, paths[1], paths[2]]) { reported.append($0) }
            #expect(count == 3)
            #expect(reported == paths)
            for path in paths { #expect(storage.attributes(of: path) == nil) }
            #expect(try storage.list("\(root)/a").isEmpty && storage.list("\(root)/b").isEmpty)
            // Nothing left to remove: none is counted, none reported.
            #expect(try storage.delete(paths) { _ in Issue.record("reported a file that was not there") } == 0)
        }
    }

    @Test func aStopPartWayLeavesTheRest() throws {
        struct Stop: Error {}
        for (storage, root) in try storages() {
            defer { try? FileManager.default.removeItem(atPath: root) }
            let paths = try files(["a/1.sklog", "a/2.sklog", "b/1.sklog"], under: root, in: storage)
            var reported = 0
            #expect(throws: Stop.self) {
                _ = try storage.delete(paths) { _ in
                    reported += 1
                    if reported == 2 { throw Stop() }
                }
            }
            #expect(storage.attributes(of: paths[0]) == nil && storage.attributes(of: paths[1]) == nil)
            #expect(try storage.read(paths[2]) == Data("b/1.sklog".utf8))
        }
    }
}
