import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

@Suite struct StoreLifecycleTests {
    @Test func createWritesMetadataAndReopens() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        let model = TestModels.workspace()
        let store = try SyncStore.create(at: path, model: model, contentName: "Workspace", peerID: "peer-A")
        #expect(store.metadata.formatVersion == StoreSchema.formatVersion)
        #expect(store.metadata.contentName == "Workspace")
        #expect(store.metadata.peerID == "peer-A")
        #expect(store.metadata.modelHash == model.versionHash)
        #expect(store.metadata.modelVersion == "Workspace 1")
        #expect(!store.metadata.syncEnabled)
        let reopened = try SyncStore.open(at: path, expecting: model)
        #expect(reopened.metadata == store.metadata)
        #expect(reopened.model == model)
        let journal = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("creating") }
        #expect(leftovers.isEmpty)
    }

    /// New stores use 16 KiB pages, a backup keeps them, and a store made with SQLite's default
    /// 4 KiB pages (by an earlier version) still opens and takes writes with its own.
    @Test func newStoresUseSixteenKiBPagesAndOlderPageSizesStillWork() throws {
        let folder = try TemporaryFolder()
        func pageSize(_ name: String) throws -> Int? {
            try DatabaseQueue(path: folder.path(name)).read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        }
        let store = try SyncStore.create(at: folder.path("new.store"), model: TestModels.workspace(), contentName: "W")
        #expect(try pageSize("new.store") == SyncStore.pageSize)
        #expect(SyncStore.pageSize == 16_384)
        try store.backup(to: folder.path("copy.store"))
        #expect(try pageSize("copy.store") == SyncStore.pageSize)
        #expect(try SyncStore.open(at: folder.path("copy.store"), readOnly: true).metadata == store.metadata)

        // An earlier version's store: the same content rewritten with 4 KiB pages.
        _ = try SyncStore.create(at: folder.path("old.store"), model: TestModels.workspace(), contentName: "W")
        try DatabaseQueue(path: folder.path("old.store")).writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "VACUUM")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        #expect(try pageSize("old.store") == 4096)
        let old = try SyncStore.open(at: folder.path("old.store"))
        let load = try old.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        try load.importBatch([ImportRecord(entity: "Tag", globalID: GlobalID("red"), values: ["name": .string("red")])],
                             checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 1, rejected: 0))
        #expect(try old.recordDigestSum(of: "Tag").count == 1)
        #expect(try pageSize("old.store") == 4096)
    }

    @Test func randomPeerIDWhenNoneGiven() throws {
        let folder = try TemporaryFolder()
        let a = try SyncStore.create(at: folder.path("a.store"), model: TestModels.workspace(), contentName: "W")
        let b = try SyncStore.create(at: folder.path("b.store"), model: TestModels.workspace(), contentName: "W")
        #expect(UUID(uuidString: a.metadata.peerID) != nil)
        #expect(a.metadata.peerID != b.metadata.peerID)
        #expect(a.metadata.storeUUID != b.metadata.storeUUID)
    }

    @Test func openRefusesAnotherModelVersionNamingBoth() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        _ = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        let other = TestModels.workspace(version: "Workspace 2", extraAttribute: true)
        let error = try #require(throws: StoreError.self) { try SyncStore.open(at: path, expecting: other) }
        #expect(error.reason == .modelMismatch)
        #expect(error.failureKind == .badInput)
        #expect(error.description.contains("'Workspace 1'"))
        #expect(error.description.contains("'Workspace 2'"))
        #expect(error.description.contains("entities that differ: Item"))
        #expect(error.hint != nil)
    }

    @Test func sameModelWithOnlyCosmeticChangesOpens() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        _ = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        var cosmetic = TestModels.workspace(version: "Workspace 1")
        cosmetic.entities[0].className = "RenamedClass"
        _ = try SyncStore.open(at: path, expecting: cosmetic)
    }

    @Test func createRefusesExistingPathAndMissingFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        _ = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let existing = try #require(throws: StoreError.self) {
            try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        }
        #expect(existing.reason == .cannotCreate)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let missing = try #require(throws: StoreError.self) {
            try SyncStore.create(at: folder.path("nope/b.store"), model: TestModels.workspace(), contentName: "W")
        }
        #expect(missing.reason == .cannotCreate)
        #expect(missing.failureKind == .cannotCreateOutput)
    }

    @Test(arguments: ["", ".hidden", "has space", "slash/inside", "ünïcode"])
    func createRefusesUnusableContentNames(name: String) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: StoreError.self) {
            try SyncStore.create(at: folder.path("a.store"), model: TestModels.workspace(), contentName: name)
        }
        #expect(error.reason == .invalidRequest)
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.store")))
    }

    @Test func createRefusesStructurallyBrokenModel() throws {
        let folder = try TemporaryFolder()
        var model = TestModels.workspace()
        model.entities[0].relationships.append(.init(name: "ghost", destination: "Nowhere"))
        let error = try #require(throws: StoreError.self) {
            try SyncStore.create(at: folder.path("a.store"), model: model, contentName: "W")
        }
        #expect(error.reason == .unusableModel)
        #expect(error.description.contains("Nowhere"))
    }

    @Test func openExplainsWhatTheFileIsInstead() throws {
        let folder = try TemporaryFolder()
        let missing = try #require(throws: StoreError.self) { try SyncStore.open(at: folder.path("none.store")) }
        #expect(missing.reason == .notFound)
        #expect(missing.failureKind == .missingInput)

        let plist = folder.path("data.plist")
        try Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>".utf8).write(to: URL(fileURLWithPath: plist))
        let notSQLite = try #require(throws: StoreError.self) { try SyncStore.open(at: plist) }
        #expect(notSQLite.reason == .notSQLite)
        #expect(notSQLite.description.contains("XML property list"))

        let plain = folder.path("plain.sqlite")
        try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let notAStore = try #require(throws: StoreError.self) { try SyncStore.open(at: plain) }
        #expect(notAStore.reason == .notAStore)

        let coreData = folder.path("cd.sqlite")
        try DatabaseQueue(path: coreData).write { db in try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER)") }
        let foreign = try #require(throws: StoreError.self) { try SyncStore.open(at: coreData) }
        #expect(foreign.description.contains("Core Data"))
    }

    @Test func openRefusesNewerFormat() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        _ = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE sk_metadata SET value = '99' WHERE key = 'formatVersion'")
        }
        let error = try #require(throws: StoreError.self) { try SyncStore.open(at: path) }
        #expect(error.reason == .unknownFormat)
        #expect(error.description.contains("99"))
    }

    @Test func readOnlyStoreReadsButRefusesToSave() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a.store")
        let store = try SyncStore.create(at: path, model: TestModels.workspace(), contentName: "W")
        let id = try store.save(author: "t") { try $0.insert("Tag", values: ["name": .string("x")]) }
        let readOnly = try SyncStore.open(at: path, readOnly: true)
        #expect(try readOnly.record(id)?.values["name"] == .string("x"))
        let error = try #require(throws: StoreError.self) { try readOnly.save(author: "t") { try $0.insert("Tag") } }
        #expect(error.reason == .invalidRequest)
    }
}
