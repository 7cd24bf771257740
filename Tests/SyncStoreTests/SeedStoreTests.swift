import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// Seed stores at the store level: the user's store has no table of a seed entity and refuses to
/// write one; a seed store holds only its configuration, is never written by a save, and is opened
/// beside the user's store read-only after its configuration and entities are checked.
@Suite struct SeedStoreTests {
    let folder: TemporaryFolder
    let model = SeedStoreModel.model()

    init() throws { folder = try TemporaryFolder() }

    private func tables(_ path: String) throws -> Set<String> {
        try DatabaseQueue(path: path).read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'e\\_%' ESCAPE '\\'"))
        }
    }

    @Test("the user's store holds the user's entities only; a seed store its configuration's only")
    func layouts() throws {
        let user = try SyncStore.create(at: folder.path("r.store"), model: model, contentName: "R")
        #expect(try tables(user.path) == ["e_Rating"])
        #expect(!user.isSeedStore)
        let seed = try SyncStore.create(at: user.seedStorePath(for: "Postcodes"), model: model, contentName: "R", seedConfiguration: "Postcodes")
        #expect(try tables(seed.path) == ["e_County", "e_Postcode"])
        #expect(seed.isSeedStore && seed.metadata.seedConfiguration == "Postcodes")
        #expect(try SyncStore.open(at: seed.path, readOnly: true).metadata.seedConfiguration == "Postcodes", "read back from sk_metadata")
        #expect(throws: StoreError.self) {
            try SyncStore.create(at: folder.path("x.store"), model: model, contentName: "R", seedConfiguration: "User")
        }
    }

    @Test("a save touching a seed entity is refused with a message naming the seed store; a seed store refuses every save")
    func writesRefused() throws {
        let user = try SyncStore.create(at: folder.path("r.store"), model: model, contentName: "R")
        do {
            try user.save(author: "app") { tx in _ = try tx.insert("Postcode", values: ["postcode": .string("CT1 1AA"), "town": .string("Canterbury")]) }
            Issue.record("the insert was saved")
        } catch let error as StoreError {
            #expect(error.reason == .invalidRequest)
            #expect(error.message.contains("read-only seed data of configuration Postcodes") && error.message.contains("r.store.seed-Postcodes"), "\(error.message)")
        }
        #expect(try user.historySummary().transactions == 0)
        // The user's own records point at seed records by global ID.
        try user.save(author: "app") { tx in _ = try tx.insert("Rating", values: ["postcode": .string("SOME-ID"), "stars": .integer(4)]) }

        let seed = try SyncStore.create(at: user.seedStorePath(for: "Postcodes"), model: model, contentName: "R", seedConfiguration: "Postcodes")
        #expect {
            try seed.save(author: "app") { tx in _ = try tx.insert("County", values: ["name": .string("Kent")]) }
        } throws: { error in
            (error as? StoreError)?.message.contains("seed store of configuration Postcodes") == true
        }
    }

    @Test("the seed store beside a store is opened read-only once its configuration and entities are checked")
    func openingBeside() throws {
        let user = try SyncStore.create(at: folder.path("r.store"), model: model, contentName: "R")
        #expect { try user.seedStore(for: "Postcodes") } throws: { error in
            (error as? StoreError)?.reason == .notFound && (error as? StoreError)?.hint?.contains("seed-store build") == true
        }
        let path = user.seedStorePath(for: "Postcodes")
        let seed = try SyncStore.create(at: path, model: model, contentName: "R", seedConfiguration: "Postcodes")
        let load = try seed.beginBulkLoad(key: "seed-store", version: "1", description: "test", source: "test", checksum: "c", author: "test")
        let kent = seed.seedGlobalID(entity: "County", values: ["name": .string("Kent")])
        try load.importBatch([ImportRecord(entity: "County", globalID: kent, values: ["name": .string("Kent")])], checkpoint: MigrationCheckpoint(stream: "s", position: 1, rows: 1, rejected: 0))
        let opened = try user.seedStore(for: "Postcodes")
        #expect(opened.isReadOnly)
        #expect(try opened.record(kent)?.values["name"] == .string("Kent"))

        // Another version of a seed entity: refused, naming it.
        var changed = model
        changed.entities[0].attributes.append(.init(name: "region", type: .string, isOptional: true))
        let other = try SyncStore.create(at: folder.path("o.store"), model: changed, contentName: "R")
        try FileManager.default.copyItem(atPath: path, toPath: other.seedStorePath(for: "Postcodes"))
        #expect { try other.seedStore(for: "Postcodes") } throws: { error in
            (error as? StoreError)?.reason == .modelMismatch && (error as? StoreError)?.message.contains("County") == true
        }
        // A user's store in the seed store's place: refused.
        let impostor = try SyncStore.create(at: folder.path("i.store"), model: model, contentName: "R")
        try FileManager.default.copyItem(atPath: impostor.path, toPath: folder.path("p.store.seed-Postcodes"))
        let p = try SyncStore.create(at: folder.path("p.store"), model: model, contentName: "R")
        #expect { try p.seedStore(for: "Postcodes") } throws: { error in (error as? StoreError)?.message.contains("not a seed store") == true }
    }

    @Test("the model's own configuration userInfo survives the store (sk_model)")
    func modelKept() throws {
        let user = try SyncStore.create(at: folder.path("r.store"), model: model, contentName: "R")
        let reopened = try SyncStore.open(at: user.path, readOnly: true)
        #expect(reopened.model.seedConfigurations.map(\.name) == ["Postcodes"])
        #expect(reopened.metadata.modelHash == model.versionHash)
    }
}
