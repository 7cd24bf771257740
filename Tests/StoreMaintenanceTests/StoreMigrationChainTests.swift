import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Steps chained across three code-built versions, and whole store-to-store runs through the library.
@Suite struct StoreMigrationChainTests {
    let folder: URL
    let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2(),
                                                         StoreMigrationModels.version3()], currentVersionName: "Library 3")

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    private var bundlePath: String { path("Library.xcdatamodeld") }

    /// A version 1 store: two shelves, five books (ordered on shelf 1, tagged), a seed tag, a scratch record.
    private func makeStore() throws -> SyncStore {
        let store = try SyncStore.create(at: path("v1.store"), model: StoreMigrationModels.version1(), contentName: "Library")
        try store.save(author: "t") { tx in
            let shelf = try tx.insert("Shelf", values: ["label": .string("A")])
            _ = try tx.insert("Shelf", values: ["label": .string("B")])
            let tag = try tx.insert("Tag", values: ["name": .string("classic")], seed: SeedMark(set: "starter", version: 1))
            let books = try (0..<5).map { index in
                try tx.insert("Book", values: ["title": .string("b\(index)"), "pages": index == 4 ? .null : .integer(Int64(100 + index)),
                                               "isbn": index.isMultiple(of: 2) ? .null : .string("isbn\(index)"), "note": .string("n")])
            }
            try tx.setToMany("books", of: shelf, to: [books[3], books[1], books[0]])
            try tx.setToMany("tags", of: books[1], to: [tag])
            _ = try tx.insert("Scratch", values: ["text": .string("gone")])
        }
        return store
    }

    @Test func theStoreVersionIsFoundByHashAndTheOneStepIsInferredOrRefused() throws {
        let store = try makeStore()
        let chain = try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: bundle,
                                          bundlePath: bundlePath, targetVersion: "Library 2")
        #expect(chain.steps.map(\.summary.count).count == 1)
        #expect(chain.checksum == "-")
        #expect(chain.targetEntity(of: "Shelf") == "Case")
        #expect(chain.targetEntity(of: "Scratch") == nil)
        do {
            _ = try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: bundle,
                                      bundlePath: bundlePath, targetVersion: nil)
            Issue.record("1 → 3 needs a step file")
        } catch let error as StepInferenceError {
            // One step, straight from the store's version to the target, as Core Data would take.
            #expect(error.from == "Library 1" && error.to == "Library 3")
            #expect(error.stepFile == path("Library 1 to Library 3.step.yaml"))
            #expect(error.problems.count == 2, "\(error.problems)")
        }
    }

    @Test func aStoreOfAVersionTheBundleLacksIsRefused() throws {
        let store = try makeStore()
        let other = ModelBundle(name: "Library", versions: [StoreMigrationModels.version2()], currentVersionName: "Library 2")
        #expect(throws: MaintenanceError.self) {
            try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: other, bundlePath: bundlePath, targetVersion: nil)
        }
        let backwards = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1()], currentVersionName: "Library 1")
        let same = try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: backwards, bundlePath: bundlePath, targetVersion: nil)
        #expect(same.steps.isEmpty)
    }

    @Test func threeVersionsChainRecordByRecordWithAStepFile() throws {
        let store = try makeStore()
        try Data(StoreMigrationModels.step2to3.utf8).write(to: URL(fileURLWithPath: path("Library 2 to Library 3.step.yaml")))
        let source = try StoreMigrationSource(path: store.path, bundle: bundle, bundlePath: bundlePath)
        #expect(source.chain.steps.count == 2)
        #expect(source.checksum == SHA256.hexDigest(of: Data(StoreMigrationModels.step2to3.utf8)))
        #expect(source.modelNote?.contains("Library 1 → Library 2 (inferred") == true)
        #expect(source.modelNote?.contains("Library 2 → Library 3 (step file Library 2 to Library 3.step.yaml") == true)
        #expect(source.streams.map(\.entity) == ["Book", "Case", "Tag"], "Scratch is removed in version 2")

        let report = try Migrator(source: source, target: path("v3.store"), options: MigrationOptions(batchSize: 2)).run()
        #expect(report.outcome == .completed)
        #expect(report.verified)
        let migrated = try SyncStore.open(at: path("v3.store"), readOnly: true)
        #expect(migrated.model.versionName == "Library 3")
        for id in try store.globalIDs(of: "Book") {
            let old = try #require(try store.record(id))
            let new = try #require(try migrated.record(id))
            #expect(new.values["name"] == old.values["title"])
            let pages = old.values["pages"].flatMap { if case .integer(let n) = $0 { return AttributeValue.string(String(n)) } else { return nil } }
            #expect(new.values["pages"] == (pages ?? .string("?")))
            #expect(new.values["format"] == .string("paper"))
            #expect(new.values["isbn"] == (old.values["isbn"] == .null ? .string("none") : old.values["isbn"]))
            #expect(try migrated.related("shelf", of: id) == store.related("shelf", of: id))
            #expect(try migrated.related("tags", of: id) == store.related("tags", of: id))
        }
        let shelf = try #require(try store.globalIDs(of: "Shelf").first { try store.record($0)?.values["label"] == .string("A") })
        #expect(try migrated.related("books", of: shelf) == store.related("books", of: shelf), "order kept")
        let tag = try #require(try store.globalIDs(of: "Tag").first)
        #expect(try migrated.record(tag)?.seed == SeedMark(set: "starter", version: 1))
        #expect(try migrated.liveRecordCounts()["Scratch"] == nil)
        // Version 2 removes Book.note (five values) and Scratch (one record): the report says so.
        #expect(report.droppedData == [
            DroppedData(kind: .attribute, entity: "Book", property: "note", values: 5, step: "Library 1 → Library 2"),
            DroppedData(kind: .entity, entity: "Scratch", property: nil, values: 1, step: "Library 1 → Library 2"),
        ])
    }

    @Test func valuesAreCountedPerKindOfProperty() throws {
        let store = try makeStore()
        #expect(try store.nonEmptyCount(of: "note", entity: "Book") == 5)
        #expect(try store.nonEmptyCount(of: "isbn", entity: "Book") == 2)
        #expect(try store.nonEmptyCount(of: "shelf", entity: "Book") == 3, "to-one targets set")
        #expect(try store.nonEmptyCount(of: "tags", entity: "Book") == 1, "records with join-table members")
        #expect(try store.nonEmptyCount(of: "books", entity: "Shelf") == 0, "kept by the inverse to-one: counted there")
        #expect(throws: StoreError.self) { try store.nonEmptyCount(of: "nothing", entity: "Book") }
    }

    @Test func aKilledRunResumesToTheSameDigest() throws {
        let store = try makeStore()
        let target = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2()], currentVersionName: "Library 2")
        let whole = try Migrator(source: StoreMigrationSource(path: store.path, bundle: target, bundlePath: bundlePath),
                                 target: path("whole.store"), options: MigrationOptions(batchSize: 1)).run()
        let source = try StoreMigrationSource(path: store.path, bundle: target, bundlePath: bundlePath)
        source.pageSize = 2
        let interrupted = Migrator(source: InterruptingSource(wrapped: source, budget: 4), target: path("resumed.store"),
                                   options: MigrationOptions(batchSize: 1))
        #expect(throws: InterruptingSource.Interrupted.self) { try interrupted.run() }
        let migrator = Migrator(source: source, target: path("resumed.store"), options: MigrationOptions(batchSize: 1))
        let resumed = try migrator.run()
        #expect(resumed.resumed)
        #expect(resumed.digest == whole.digest)
        #expect(try migrator.run().outcome == .alreadyCompleted)
    }
}

/// A source whose streams stop with an error after `budget` items in all, as a killed process would.
final class InterruptingSource: MigrationSource {
    struct Interrupted: Error {}
    final class Budget { var left: Int; init(_ left: Int) { self.left = left } }
    struct Stream: MigrationStream {
        let wrapped: any MigrationStream
        let budget: Budget
        var name: String { wrapped.name }
        var entity: String { wrapped.entity }
        func estimatedCount() throws -> Int? { try wrapped.estimatedCount() }
        func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
            try wrapped.forEach(after: position, store: store) { item in
                guard budget.left > 0 else { throw Interrupted() }
                budget.left -= 1
                return try body(item)
            }
        }
    }

    let wrapped: any MigrationSource
    let budget: Budget
    init(wrapped: any MigrationSource, budget: Int) {
        self.wrapped = wrapped
        self.budget = Budget(budget)
    }
    var kindDescription: String { wrapped.kindDescription }
    var location: String { wrapped.location }
    var targetModel: ManagedModel { wrapped.targetModel }
    var modelNote: String? { wrapped.modelNote }
    var fingerprint: String { wrapped.fingerprint }
    var checksum: String { wrapped.checksum }
    var streams: [any MigrationStream] { wrapped.streams.map { Stream(wrapped: $0, budget: budget) } }
    func validate() throws { try wrapped.validate() }
    func tallies() throws -> [SourceTally] { try wrapped.tallies() }
}
