import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Core Data's lightweight rules for what is added, removed and made required or optional, each
/// with a Core Data store that needs it (laid out as Core Data lays one out, with its version's
/// entity hashes), migrated with the app's bundle and read back value by value. An attribute
/// that becomes required without a default stops the step only when a record holds no value for
/// it, as Core Data's migration fails only on such a record.
@Suite struct CoreDataRequirednessRulesTests {
    let fixture = CoreDataRuleFixture(prefix: "coredata-requiredness")

    /// Items in bins, from suppliers; a legacy entity holding leftovers.
    static let shop1 = ManagedModel(name: "Shop", versionName: "Shop 1", entities: [
        EntityDescription(name: "Item", attributes: [
            .init(name: "name", type: .string),
            .init(name: "size", type: .integer16),
            .init(name: "color", type: .string, isOptional: true),
            .init(name: "note", type: .string, isOptional: true),
        ], relationships: [
            .init(name: "bin", destination: "Bin", isOptional: true, maxCount: 1),
            .init(name: "supplier", destination: "Supplier", inverseName: "items", isOptional: true, maxCount: 1),
        ]),
        EntityDescription(name: "Bin", attributes: [.init(name: "code", type: .string)]),
        EntityDescription(name: "Supplier", attributes: [.init(name: "title", type: .string)], relationships: [
            .init(name: "items", destination: "Item", inverseName: "supplier", isToMany: true, isOptional: true),
        ]),
        EntityDescription(name: "Legacy", attributes: [.init(name: "blob", type: .string, isOptional: true)]),
    ])

    /// Coupon and Label are added, Legacy removed, Supplier renamed Vendor; Item loses its bin, gains
    /// labels and a stock with a default, its size becomes optional, color and note required.
    static let shop2 = ManagedModel(name: "Shop", versionName: "Shop 2", entities: [
        EntityDescription(name: "Item", attributes: [
            .init(name: "name", type: .string),
            .init(name: "size", type: .integer16, isOptional: true),
            .init(name: "color", type: .string, defaultValueString: "grey", defaultValue: .string("grey")),
            .init(name: "note", type: .string),
            .init(name: "stock", type: .integer32, defaultValueString: "10", defaultValue: .integer(10)),
        ], relationships: [
            .init(name: "labels", destination: "Label", isToMany: true, isOptional: true),
            .init(name: "vendor", destination: "Vendor", inverseName: "items", isOptional: true, maxCount: 1, elementID: "supplier"),
        ]),
        EntityDescription(name: "Bin", attributes: [.init(name: "code", type: .string)]),
        EntityDescription(name: "Vendor", attributes: [.init(name: "title", type: .string)], relationships: [
            .init(name: "items", destination: "Item", inverseName: "vendor", isToMany: true, isOptional: true),
        ], elementID: "Supplier"),
        EntityDescription(name: "Coupon", attributes: [.init(name: "code", type: .string)]),
        EntityDescription(name: "Label", attributes: [.init(name: "text", type: .string)]),
    ])

    @Test("entities added, removed and renamed; attributes made optional, required with a default, and required where every record has a value; relationships added, removed and kept to a renamed entity")
    func addedRemovedAndRequired() throws {
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Bin", key: 1, values: ["code": "B1"]),
            .init(entity: "Supplier", key: 1, values: ["title": "ACME"]),
            .init(entity: "Item", key: 1, values: ["name": "pen", "size": 3, "color": "blue", "note": "fine"], toOne: ["bin": 1, "supplier": 1]),
            .init(entity: "Item", key: 2, values: ["name": "cup", "note": "chipped"], toOne: ["supplier": 1]),
            .init(entity: "Legacy", key: 1, values: ["blob": "x"]),
            .init(entity: "Legacy", key: 2),
        ]
        let migrated = try fixture.migrate(Self.shop1, Self.shop2, rows: rows)
        let (store, id) = (migrated.store, migrated.id)
        let changes = migrated.source.chain?.steps.first?.changes ?? []
        #expect(changes.contains("Item.note now required (no record of Item is without a value)"), "\(changes)")
        #expect(changes.contains("Item.color now required (empty values take its default)"), "\(changes)")

        let pen = try #require(try store.record(id("Item", 1)))
        #expect(pen.values["name"] == .string("pen") && pen.values["size"] == .integer(3) && pen.values["color"] == .string("blue"))
        #expect(pen.values["note"] == .string("fine") && pen.values["bin"] == nil, "\(pen.values)")
        let cup = try #require(try store.record(id("Item", 2)))
        #expect(cup.values["color"] == .string("grey"), "an empty value of an attribute made required takes its default")
        #expect((cup.values["size"] ?? .null) == .null, "required → optional keeps an empty value empty")
        #expect(cup.values["note"] == .string("chipped"))
        for item in [pen, cup] { #expect((item.values["stock"] ?? .integer(10)) == .integer(10), "an added attribute has its default or nothing") }

        // Relationships: the renamed one keeps its members and points at the renamed entity; the
        // added one is empty; the removed one's targets are dropped data.
        #expect(try store.related("vendor", of: id("Item", 1)) == [id("Supplier", 1)])
        #expect(try store.related("vendor", of: id("Item", 2)) == [id("Supplier", 1)])
        #expect(Set(try store.related("items", of: id("Supplier", 1))) == [id("Item", 1), id("Item", 2)])
        #expect(try store.related("labels", of: id("Item", 1)).isEmpty)
        #expect(try store.record(id("Supplier", 1))?.values["title"] == .string("ACME"))
        #expect(try store.record(id("Bin", 1))?.values["code"] == .string("B1"))

        // Entities: the added ones are empty, the removed one's records are not carried over.
        #expect(try store.liveRecordCounts() == ["Item": 2, "Bin": 1, "Vendor": 1, "Coupon": 0, "Label": 0])
        #expect(try store.record(id("Legacy", 1)) == nil)
        #expect(migrated.report.droppedData.sorted { $0.entity > $1.entity } == [
            DroppedData(kind: .entity, entity: "Legacy", property: nil, values: 2, step: "Shop 1 → Shop 2"),
            DroppedData(kind: .relationship, entity: "Item", property: "bin", values: 1, step: "Shop 1 → Shop 2"),
        ], "\(migrated.report.droppedData)")
    }

    /// Notes whose title and body may be empty, and tags.
    static let notes1 = ManagedModel(name: "Notes", versionName: "Notes 1", entities: [
        EntityDescription(name: "Note", attributes: [.init(name: "title", type: .string, isOptional: true),
                                                     .init(name: "body", type: .string, isOptional: true)]),
        EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string, isOptional: true)]),
    ])
    /// Both attributes become required, without a default; so does Tag.name.
    static let notes2 = ManagedModel(name: "Notes", versionName: "Notes 2", entities: [
        EntityDescription(name: "Note", attributes: [.init(name: "title", type: .string), .init(name: "body", type: .string)]),
        EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)]),
    ])

    @Test("optional → required without a default: carried when no record is empty; stopped before writing, naming entity, attribute and count, when some are")
    func optionalBecomesRequiredWithoutDefault() throws {
        // Every note has both values, and there are no tags: Core Data migrates this, and so do we.
        let full: [CoreDataStoreWriter.Row] = (1...3).map { .init(entity: "Note", key: $0, values: ["title": "t\($0)", "body": "b\($0)"]) }
        let migrated = try fixture.migrate(Self.notes1, Self.notes2, rows: full, targetName: "full.store")
        for key in Int64(1)...3 {
            #expect(try migrated.store.record(migrated.id("Note", key))?.values == ["title": .string("t\(key)"), "body": .string("b\(key)")])
        }
        #expect(migrated.source.chain?.steps.first?.changes.contains("Note.body now required (no record of Note is without a value)") == true)

        // One note without a title, two without a body: Core Data's migration fails on them.
        let gaps: [CoreDataStoreWriter.Row] = [
            .init(entity: "Note", key: 1, values: ["title": "t1", "body": "b1"]),
            .init(entity: "Note", key: 2, values: ["title": "t2"]),
            .init(entity: "Note", key: 3),
            .init(entity: "Tag", key: 1, values: ["name": "red"]),
        ]
        let error = #expect(throws: StepInferenceError.self) { try fixture.source(Self.notes1, Self.notes2, rows: gaps) }
        #expect(error?.problems == [
            "Note.title becomes required and has no default value, and 1 record of Note holds no value for it (give one with 'default:', or fill them before migrating)",
            "Note.body becomes required and has no default value, and 2 records of Note hold no value for it (give one with 'default:', or fill them before migrating)",
        ], "\(error?.problems ?? [])")
        #expect(error?.failureKind == .badInput && error?.hint?.contains("Notes 1 to Notes 2.step.yaml") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Notes 2.store")))

        // The step file's defaults fill exactly the empty values.
        let steps = try fixture.stepsFolder(from: "Notes 1", to: "Notes 2",
                                            "entities:\n  - entity: Note\n    attributes:\n      title: {default: untitled}\n      body: {default: '-'}\n")
        let filled = try fixture.migrate(Self.notes1, Self.notes2, rows: gaps, stepsFolder: steps)
        #expect(try filled.store.record(filled.id("Note", 1))?.values == ["title": .string("t1"), "body": .string("b1")])
        #expect(try filled.store.record(filled.id("Note", 2))?.values == ["title": .string("t2"), "body": .string("-")])
        #expect(try filled.store.record(filled.id("Note", 3))?.values == ["title": .string("untitled"), "body": .string("-")])
        #expect(try filled.store.record(filled.id("Tag", 1))?.values == ["name": .string("red")])
    }

    @Test("a storekeep store follows the same rule: optional → required is carried when no record is empty, refused with the count when some are")
    func storekeepStoreOptionalBecomesRequired() throws {
        let bundle = ModelBundle(name: "Notes", versions: [Self.notes1, Self.notes2], currentVersionName: "Notes 2")
        try FileManager.default.createDirectory(at: fixture.folder, withIntermediateDirectories: true)
        let store = try SyncStore.create(at: fixture.path("full.store"), model: Self.notes1, contentName: "Notes")
        var note: GlobalID?
        try store.save(author: "t") { tx in note = try tx.insert("Note", values: ["title": .string("a"), "body": .string("b")]) }
        let source = try StoreMigrationSource(path: store.path, bundle: bundle, bundlePath: fixture.path("Notes.xcdatamodeld"))
        let report = try Migrator(source: source, target: fixture.path("full2.store"), options: MigrationOptions()).run()
        #expect(report.outcome == .completed && report.verified)
        let migrated = try SyncStore.open(at: fixture.path("full2.store"), readOnly: true)
        #expect(try migrated.record(try #require(note))?.values == ["title": .string("a"), "body": .string("b")])

        try store.save(author: "t") { tx in _ = try tx.insert("Note", values: ["title": .string("c")]) }
        let error = #expect(throws: StepInferenceError.self) {
            try StoreMigrationSource(path: store.path, bundle: bundle, bundlePath: fixture.path("Notes.xcdatamodeld"))
        }
        #expect(error?.problems == ["Note.body becomes required and has no default value, and 1 record of Note holds no value for it (give one with 'default:', or fill them before migrating)"],
                "\(error?.problems ?? [])")
    }
}
