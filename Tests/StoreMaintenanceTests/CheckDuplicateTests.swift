import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Groups that must not exist: singletons, seed duplicates, uniqueness constraints.
@Suite("check: duplicates")
struct CheckDuplicateTests {
    @Test("a singleton entity with two live records is one finding listing both")
    func singleton() throws {
        let shop = try CheckFixture()
        let second = try shop.open().save(author: "peer-B") { tx in try tx.insert("Settings", values: ["theme": .string("light")]) }
        let found = shop.findings(.singletonDuplicate)
        #expect(found.count == 1)
        #expect(found.first?.globalIDs == [shop["settings"], second.rawValue].sorted())
        #expect(found.first?.records?.map(\.entity) == ["Settings", "Settings"])
        #expect(found.first?.records?.allSatisfy { $0.created > 0 } == true)
    }

    @Test("seed records sharing their seed key form one group; user records with the same key do not count")
    func seeds() throws {
        let shop = try CheckFixture()
        let store = try shop.open()
        try store.save(author: "app") { tx in
            _ = try tx.insert("Category", values: ["name": .string("Music")])  // the user's own
        }
        #expect(shop.findings(.seedDuplicate).isEmpty)
        let copy = try store.save(author: "peer-B") { tx in
            try tx.insert("Category", values: ["name": .string("Books")], seed: SeedMark(set: "starter", version: 2))
        }
        try store.save(author: "app") { tx in try tx.update(GlobalID(shop["books"]), values: ["name": .string("Books")]) }
        let found = shop.findings(.seedDuplicate)
        #expect(found.count == 1)
        #expect(found.first?.globalIDs == [shop["books"], copy.rawValue].sorted())
        #expect(found.first?.keyAttributes == ["name"])
        #expect(found.first?.keyValues == ["Books"])
        let records = Dictionary(uniqueKeysWithValues: (found.first?.records ?? []).map { ($0.globalID, $0) })
        #expect(records[copy.rawValue]?.seedVersion == 2)
        #expect(records[shop["books"]]?.isModified == true, "the user touched the original: repair must keep it")
        #expect(records[copy.rawValue]?.isModified == false)
    }

    @Test("a uniqueness constraint broken across an entity and its sub-entity; empty values are not duplicates")
    func uniqueness() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_code = NULL WHERE _gid = ?", [shop["beta"]])
        #expect(shop.findings(.uniqueViolated).isEmpty, "only Gamma and Beta lack a code; NULLs do not collide")
        try shop.sql("UPDATE e_Product SET a_code = 'A1' WHERE _gid IN (?, ?)", [shop["beta"], shop["gamma"]])
        let found = shop.findings(.uniqueViolated)
        #expect(found.count == 1)
        #expect(found.first?.globalIDs == [shop["alpha"], shop["beta"], shop["gamma"]].sorted())
        #expect(found.first?.keyValues == ["A1"])
        #expect(found.first?.entity == "Product")
    }
}
