import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Files beside the store: external binary values, the lock, the migration history and its files.
@Suite("check: files, migrations and the lock")
struct CheckFileTests {
    /// Makes a file look older than the orphan grace period.
    private func age(_ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
    }

    @Test("a referenced blob file that is missing")
    func missingBlob() throws {
        let shop = try CheckFixture()
        try FileManager.default.removeItem(atPath: shop.photoFile)
        let found = shop.findings(.blobMissing)
        #expect(found.map(\.globalIDs) == [[shop["alpha"]]])
        #expect(found.first?.file == shop.photoFile)
        #expect(found.first?.blobHash == URL(fileURLWithPath: shop.photoFile).lastPathComponent)
        #expect(found.first?.property == "photo")
    }

    @Test("an orphaned blob file and a stray file are warnings; a young one beside an open writer is not reported")
    func orphans() throws {
        let shop = try CheckFixture()
        let data = Data(repeating: 7, count: 5000)
        let hex = ObjectModel.SHA256.hexDigest(of: data)
        let folder = shop.path + ".blobs/\(hex.prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: folder + "/\(hex)"))
        let stray = shop.path + ".blobs/notes.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: stray))
        let report = shop.check()
        let orphans = report.findings.filter { $0.code == .blobOrphaned }
        #expect(Set(orphans.compactMap(\.file)) == [folder + "/\(hex)", stray], "no writer: nothing is about to be committed")
        #expect(orphans.first { $0.file == stray }?.blobHash == nil)
        #expect(report.status == .warnings)

        _ = try shop.open()  // a writer has the store open: young files may belong to a commit in progress
        #expect(shop.findings(.blobOrphaned).isEmpty)
        try age(folder + "/\(hex)")
        #expect(shop.findings(.blobOrphaned).map(\.blobHash) == [hex])
    }

    @Test("a blob whose content does not hash to its name is found by a full check only")
    func damagedBlob() throws {
        let shop = try CheckFixture()
        try Data(repeating: 0, count: 5000).write(to: URL(fileURLWithPath: shop.photoFile))
        #expect(shop.findings(.blobContentMismatch, .quick).isEmpty)
        let found = shop.findings(.blobContentMismatch, .full)
        #expect(found.map(\.globalIDs) == [[shop["alpha"]]])
        #expect(found.first?.actualHash == ObjectModel.SHA256.hexDigest(of: Data(repeating: 0, count: 5000)))
    }

    @Test("text in a binary column that is not a sha256 reference")
    func badReference() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_photo = 'sha256:abc' WHERE _gid = ?", [shop["beta"]])
        let found = shop.findings(.blobBadReference)
        #expect(found.map(\.globalIDs) == [[shop["beta"]]])
        #expect(found.first?.value == "sha256:abc")
    }

    @Test("a migration run that never finished, unless a live process holds the lock; a failed run")
    func migrations() throws {
        let shop = try CheckFixture()
        let store = try shop.open()
        let load = try store.beginBulkLoad(key: "k", version: "Shop 1", description: "test", source: "old.plist", checksum: "-", author: "m")
        let found = shop.findings(.migrationUnfinished)
        #expect(found.map(\.migration) == [load.run.id])
        let lock = try StoreLock.acquire(for: shop.path, command: "migrate")
        #expect(shop.findings(.migrationUnfinished).isEmpty, "the migration may still be running")
        lock.release()
        try load.finish(success: false)
        #expect(shop.findings(.migrationFailed).map(\.migration) == [load.run.id])
        try shop.sql("UPDATE sk_migration SET success = 1")
        #expect(shop.check().status == .ok)
    }

    @Test("an applied mapping or step file that changed or went away since; a store that records none has no finding")
    func migrationFiles() throws {
        let shop = try CheckFixture()
        let store = try shop.open()
        let file = shop.folder.appendingPathComponent("1-to-2.steps.yaml")
        try Data("from: Shop 1\n".utf8).write(to: file)
        let checksum = ObjectModel.SHA256.hexDigest(of: Data("from: Shop 1\n".utf8))
        let load = try store.beginBulkLoad(key: "k", version: "Shop 1", description: "test", source: "old.store", checksum: checksum,
                                           files: [MigrationFile(path: file.path, checksum: checksum)], author: "m")
        try load.finish(success: true)
        #expect(try store.migrationFiles(migration: load.run.id) == [MigrationFile(path: file.path, checksum: checksum)])
        #expect(shop.check().status == .ok)
        try Data("from: Shop 1 # edited\n".utf8).write(to: file)
        let changed = shop.findings(.migrationFileChanged)
        #expect(changed.map(\.file) == [file.path])
        #expect(changed.first?.expectedHash == checksum)
        #expect(changed.first?.severity == .warning)
        try FileManager.default.removeItem(at: file)
        #expect(shop.findings(.migrationFileMissing).map(\.migration) == [load.run.id])
        try shop.sql("DROP TABLE sk_migration_file")
        #expect(shop.check().status == .ok)
    }

    @Test("a lock file of a process that no longer exists is stale; an unreadable one is reported; a held one is not")
    func locks() throws {
        let shop = try CheckFixture()
        let lockPath = StoreLock.lockPath(for: shop.path)
        let owner = StoreLock.Owner(command: "migrate", host: ProcessInfo.processInfo.hostName, pid: Int32.max - 1, started: "2026-01-01T00:00:00Z")
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: lockPath))
        let stale = shop.findings(.lockStale)
        #expect(stale.map(\.file) == [lockPath])
        #expect(stale.first?.severity == .warning)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: lockPath))
        #expect(shop.findings(.lockUnreadable).count == 1)
        try FileManager.default.removeItem(atPath: lockPath)
        let held = try StoreLock.acquire(for: shop.path, command: "migrate")
        defer { held.release() }
        #expect(shop.check().status == .ok)
    }
}
