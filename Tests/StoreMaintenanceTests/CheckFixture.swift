import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore

/// A small shop store that passes every check, and ways to break it with raw SQL and file
/// operations, for the `StoreChecker` tests.
///
/// Model: `Category` (seed key `name`) ← required to-one `Product.category`; `Product` (title with
/// a pattern, price 0…1000, code unique and at most 8 characters, Integer 16 stock, external photo,
/// many-to-many `tags`, one-to-one `passport`) with sub-entity `Book` (pages ≥ 1); `Tag`;
/// `Passport`; singleton `Settings`; `Bundle` with a required to-many `items` of 2…3 products
/// (a join table without inverse).
final class CheckFixture {
    let folder: URL
    let path: String
    private(set) var ids: [String: GlobalID] = [:]
    private var store: SyncStore?

    static func model() -> ManagedModel {
        ManagedModel(name: "Shop", versionName: "Shop 1", entities: [
            EntityDescription(name: "Category", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "products", destination: "Product", inverseName: "category", isToMany: true, isOptional: true),
            ], facts: StorekeepFacts(seedKey: ["name"])),
            EntityDescription(name: "Product", attributes: [
                .init(name: "title", type: .string, regularExpression: "[A-Z][a-z]*"),
                .init(name: "price", type: .double, minValueString: "0", maxValueString: "1000"),
                .init(name: "code", type: .string, isOptional: true, maxValueString: "8"),
                .init(name: "stock", type: .integer16, isOptional: true),
                .init(name: "photo", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            ], relationships: [
                .init(name: "category", destination: "Category", inverseName: "products"),
                .init(name: "tags", destination: "Tag", inverseName: "products", isToMany: true, isOptional: true),
                .init(name: "passport", destination: "Passport", inverseName: "product", isOptional: true),
            ], uniquenessConstraints: [["code"]]),
            EntityDescription(name: "Book", parentName: "Product", attributes: [
                .init(name: "pages", type: .integer32, isOptional: true, minValueString: "1"),
            ]),
            EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "products", destination: "Product", inverseName: "tags", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Passport", attributes: [.init(name: "number", type: .string)], relationships: [
                .init(name: "product", destination: "Product", inverseName: "passport", isOptional: true),
            ]),
            EntityDescription(name: "Settings", attributes: [.init(name: "theme", type: .string, isOptional: true)],
                              facts: StorekeepFacts(isSingleton: true)),
            EntityDescription(name: "Bundle", attributes: [.init(name: "label", type: .string, isOptional: true)], relationships: [
                .init(name: "items", destination: "Product", isToMany: true, minCount: 2, maxCount: 3),
            ]),
        ])
    }

    /// The photo of `Alpha`: over 4 KB, so it is kept in the blob folder.
    static let photo = Data((0..<5000).map { UInt8($0 % 251) })

    /// Creates the clean store (closed afterwards, so no `-wal`/`-shm` remain).
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("shop.store").path
        var made: [String: GlobalID] = [:]
        try autoreleasepool {
            let store = try SyncStore.create(at: path, model: Self.model(), contentName: "Shop", peerID: "peer-A")
            try store.save(author: "test") { tx in
                let seed = SeedMark(set: "starter", version: 1)
                made["books"] = try tx.insert("Category", values: ["name": .string("Books")], seed: seed)
                made["music"] = try tx.insert("Category", values: ["name": .string("Music")], seed: seed)
                made["tag"] = try tx.insert("Tag", values: ["name": .string("new")])
                made["alpha"] = try tx.insert("Product", values: ["title": .string("Alpha"), "price": .double(10), "code": .string("A1"),
                                                                 "stock": .integer(5), "photo": .binary(Self.photo)])
                made["beta"] = try tx.insert("Product", values: ["title": .string("Beta"), "price": .double(20), "code": .string("B2")])
                made["gamma"] = try tx.insert("Book", values: ["title": .string("Gamma"), "price": .double(5), "pages": .integer(120)])
                made["passport"] = try tx.insert("Passport", values: ["number": .string("P-1")])
                made["settings"] = try tx.insert("Settings", values: ["theme": .string("dark")])
                made["bundle"] = try tx.insert("Bundle", values: ["label": .string("pair")])
                try tx.setToOne("category", of: made["alpha"]!, to: made["books"]!)
                try tx.setToOne("category", of: made["beta"]!, to: made["music"]!)
                try tx.setToOne("category", of: made["gamma"]!, to: made["books"]!)
                try tx.setToMany("tags", of: made["alpha"]!, to: [made["tag"]!])
                try tx.setToOne("passport", of: made["alpha"]!, to: made["passport"]!)
                try tx.setToMany("items", of: made["bundle"]!, to: [made["alpha"]!, made["beta"]!])
            }
            try store.save(author: "test") { tx in try tx.update(made["beta"]!, values: ["stock": .integer(3)]) }
        }
        ids = made
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    subscript(name: String) -> String { ids[name]!.rawValue }

    /// Opens the store through the library (kept open: a writer beside the check).
    func open() throws -> SyncStore {
        if let store { return store }
        let opened = try SyncStore.open(at: path)
        store = opened
        return opened
    }

    /// Runs SQL on the store file directly, as something writing around storekeep would.
    func sql(_ statements: String, _ arguments: StatementArguments = StatementArguments()) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: statements, arguments: arguments) }
        try queue.close()
    }

    /// The blob file of the photo.
    var photoFile: String {
        let hex = ObjectModel.SHA256.hexDigest(of: Self.photo)
        return path + ".blobs/\(hex.prefix(2))/\(hex)"
    }

    /// Checks the store.
    func check(_ depth: CheckDepth = .quick, model: ManagedModel? = nil) -> StoreCheckReport {
        StoreChecker(options: CheckOptions(depth: depth, model: model)).check(storeAt: path)
    }

    /// The findings of `code`.
    func findings(_ code: CheckCode, _ depth: CheckDepth = .quick) -> [CheckFinding] {
        check(depth).findings.filter { $0.code == code }
    }
}

/// Runs `body` (Linux has no autorelease pool; the name keeps the intent: let the store go at the end).
func autoreleasepool<T>(_ body: () throws -> T) rethrows -> T { try body() }
