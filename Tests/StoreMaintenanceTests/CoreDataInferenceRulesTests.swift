import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// The type and relationship changes Core Data's lightweight migration infers, each with a store
/// that needs it, migrated for real: values that fit are carried exactly, the others rejected.
@Suite struct CoreDataInferenceRulesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Version 1: numbers of every kind and a to-one without inverse.
    static let version1 = ManagedModel(name: "Lab", versionName: "Lab 1", entities: [
        EntityDescription(name: "Sample", attributes: [
            .init(name: "count", type: .integer64, isOptional: true),
            .init(name: "ratio", type: .double, isOptional: true),
            .init(name: "flag", type: .boolean, isOptional: true),
            .init(name: "level", type: .integer16, isOptional: true),
            .init(name: "amount", type: .decimal, isOptional: true),
            .init(name: "weight", type: .double, isOptional: true),
        ], relationships: [.init(name: "shelf", destination: "Shelf", isOptional: true)]),
        EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string)]),
    ])

    /// Version 2: every number changes type the way Core Data infers, and the to-one becomes a
    /// to-many (renamed through its renaming identifier).
    static let version2 = ManagedModel(name: "Lab", versionName: "Lab 2", entities: [
        EntityDescription(name: "Sample", attributes: [
            .init(name: "count", type: .integer16, isOptional: true),     // narrowing
            .init(name: "ratio", type: .integer32, isOptional: true),     // Double → Integer
            .init(name: "flag", type: .integer16, isOptional: true),      // Boolean → Integer
            .init(name: "level", type: .boolean, isOptional: true),       // Integer → Boolean
            .init(name: "amount", type: .double, isOptional: true),       // Decimal → Double
            .init(name: "weight", type: .float, isOptional: true),        // Double → Float
        ], relationships: [.init(name: "shelves", destination: "Shelf", isToMany: true, isOptional: true, elementID: "shelf")]),
        EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string)]),
    ])

    @Test("numeric and Boolean type changes and a to-one becoming a to-many are inferred; values that do not fit exactly are rejected")
    func rules() throws {
        let store = try SyncStore.create(at: path("v1.store"), model: Self.version1, contentName: "Lab")
        var ids: [String: GlobalID] = [:]
        try store.save(author: "t") { tx in
            let shelf = try tx.insert("Shelf", values: ["label": .string("A")])
            ids["shelf"] = shelf
            ids["fits"] = try tx.insert("Sample", values: ["count": .integer(5), "ratio": .double(3), "flag": .boolean(true), "level": .integer(1),
                                                          "amount": .decimal("2.5"), "weight": .double(0.1)])
            try tx.setToOne("shelf", of: ids["fits"]!, to: shelf)
            ids["tooBig"] = try tx.insert("Sample", values: ["count": .integer(70_000)])
            ids["fraction"] = try tx.insert("Sample", values: ["ratio": .double(2.5)])
            ids["notBoolean"] = try tx.insert("Sample", values: ["level": .integer(2)])
            ids["empty"] = try tx.insert("Sample", values: [:])
        }
        let bundle = ModelBundle(name: "Lab", versions: [Self.version1, Self.version2], currentVersionName: "Lab 2")
        let source = try StoreMigrationSource(path: store.path, bundle: bundle, bundlePath: path("Lab.xcdatamodeld"))
        #expect(source.chain.steps.count == 1)
        #expect(source.chain.steps[0].changes.contains("Sample.shelves changes from to-one to to-many (the old target becomes its only member)"))
        let report = try Migrator(source: source, target: path("v2.store"), options: MigrationOptions(onError: .skip)).run()
        #expect(report.outcome == .completed && report.verified)
        #expect(report.streams.first { $0.entity == "Sample" }?.rejected == 3)
        let migrated = try SyncStore.open(at: path("v2.store"), readOnly: true)
        let fits = try #require(try migrated.record(ids["fits"]!))
        #expect(fits.values["count"] == .integer(5) && fits.values["ratio"] == .integer(3) && fits.values["flag"] == .integer(1))
        #expect(fits.values["level"] == .boolean(true) && fits.values["amount"] == .double(2.5) && fits.values["weight"] == .double(0.1))
        #expect(try migrated.related("shelves", of: ids["fits"]!) == [ids["shelf"]!])
        #expect(try migrated.record(ids["empty"]!) != nil)
        for rejected in ["tooBig", "fraction", "notBoolean"] { #expect(try migrated.record(ids[rejected]!) == nil, "\(rejected)") }
        let lines = try String(contentsOfFile: path("v2.store.rejected.jsonl"), encoding: .utf8)
        #expect(lines.contains("70000 does not fit in Integer 16 exactly"))
        #expect(lines.contains("2.5 does not fit in Integer 32 exactly"))
        #expect(lines.contains("2 is neither 0 nor 1"))
    }
}
