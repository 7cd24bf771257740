import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Core Data's lightweight-migration rules, each with a Core Data store that needs it: stores laid
/// out as Core Data lays them out, with their version's entity hashes, migrated with the app's
/// bundle (found by hash, one step to the current version) and read back record by record.
@Suite struct CoreDataLightweightRulesTests {
    let fixture = CoreDataRuleFixture(prefix: "coredata-lightweight")

    private var folder: URL { fixture.folder }

    private func path(_ name: String) -> String { fixture.path(name) }

    /// Writes the store of `old` holding `rows`, migrates it with the bundle `[old, new]` to `new`
    /// and opens the result; `stepsFolder` as `--steps`.
    private func migrate(_ old: ManagedModel, _ new: ManagedModel, rows: [CoreDataStoreWriter.Row], stepsFolder: String? = nil,
                         options: MigrationOptions = MigrationOptions(), sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (source: CoreDataMigrationSource, report: MigrationReport, store: SyncStore, ids: (String, Int64) -> GlobalID) {
        let migrated = try fixture.migrate(old, new, rows: rows, stepsFolder: stepsFolder, options: options, sourceLocation: sourceLocation)
        return (migrated.source, migrated.report, migrated.store, migrated.id)
    }

    @Test("attributes added, removed, renamed by renaming identifier, made required with a default, and widened; an entity renamed")
    func attributes() throws {
        let old = ManagedModel(name: "Shop", versionName: "Shop 1", entities: [
            EntityDescription(name: "Item", attributes: [
                .init(name: "name", type: .string),
                .init(name: "price", type: .integer16, isOptional: true),
                .init(name: "count", type: .integer32, isOptional: true),
                .init(name: "stock", type: .integer64, isOptional: true),
                .init(name: "weight", type: .float, isOptional: true),
                .init(name: "amount", type: .integer32, isOptional: true),
                .init(name: "sku", type: .string, isOptional: true),
                .init(name: "category", type: .string, isOptional: true),
                .init(name: "note", type: .string, isOptional: true),
                .init(name: "legacy", type: .string, isOptional: true),
            ]),
            EntityDescription(name: "Supplier", attributes: [.init(name: "title", type: .string)]),
        ])
        let new = ManagedModel(name: "Shop", versionName: "Shop 2", entities: [
            EntityDescription(name: "Item", attributes: [
                .init(name: "name", type: .string),
                .init(name: "price", type: .integer32, isOptional: true),        // Integer 16 → 32
                .init(name: "count", type: .integer64, isOptional: true),        // Integer 32 → 64
                .init(name: "stock", type: .double, isOptional: true),           // Integer → Double
                .init(name: "weight", type: .double, isOptional: true),          // Float → Double
                .init(name: "amount", type: .decimal, isOptional: true),         // Integer → Decimal
                .init(name: "code", type: .string, isOptional: true, elementID: "sku"),
                .init(name: "category", type: .string, defaultValueString: "misc", defaultValue: .string("misc")),
                .init(name: "rating", type: .integer16, isOptional: true),
                .init(name: "label", type: .string, defaultValueString: "new", defaultValue: .string("new")),
            ]),
            EntityDescription(name: "Vendor", attributes: [.init(name: "title", type: .string)], elementID: "Supplier"),
        ])
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Item", key: 1, values: ["name": "pen", "price": 120, "count": 70_000, "stock": 9_000_000_000, "weight": 0.5,
                                                   "amount": 42, "sku": "P-1", "category": "office", "note": "blue ink"]),
            .init(entity: "Item", key: 2, values: ["name": "cup", "note": "chipped"]),
            .init(entity: "Supplier", key: 1, values: ["title": "ACME"]),
        ]
        let (_, report, store, id) = try migrate(old, new, rows: rows)
        let pen = try #require(try store.record(id("Item", 1)))
        #expect(pen.values["price"] == .integer(120) && pen.values["count"] == .integer(70_000))
        #expect(pen.values["stock"] == .double(9_000_000_000) && pen.values["weight"] == .double(0.5) && pen.values["amount"] == .decimal("42"))
        #expect(pen.values["code"] == .string("P-1") && pen.values["category"] == .string("office"))
        #expect((pen.values["rating"] ?? .null) == .null && pen.values["note"] == nil && pen.values["sku"] == nil)
        let cup = try #require(try store.record(id("Item", 2)))
        #expect(cup.values["category"] == .string("misc"), "an empty value of an attribute made required takes its default")
        let vendors = try store.globalIDs(of: "Vendor")
        #expect(vendors.count == 1 && vendors.first?.rawValue.hasSuffix("/Supplier/p1") == true, "records keep their global IDs")
        #expect(try store.record(vendors[0])?.values["title"] == .string("ACME"))
        // Item.note held two values; Item.legacy none: only what holds values is dropped data.
        #expect(report.droppedData == [DroppedData(kind: .attribute, entity: "Item", property: "note", values: 2, step: "Shop 1 → Shop 2")])
    }

    @Test("ordered becomes unordered and unordered becomes ordered, for a to-many with a to-one inverse and for a many-to-many")
    func orderedAndUnordered() throws {
        func model(_ version: String, playlistOrdered: Bool, tagsOrdered: Bool) -> ManagedModel {
            ManagedModel(name: "Music", versionName: version, entities: [
                EntityDescription(name: "Playlist", attributes: [.init(name: "title", type: .string)], relationships: [
                    .init(name: "songs", destination: "Song", inverseName: "playlist", isToMany: true, isOrdered: playlistOrdered, isOptional: true),
                ]),
                EntityDescription(name: "Song", attributes: [.init(name: "title", type: .string)], relationships: [
                    .init(name: "playlist", destination: "Playlist", inverseName: "songs", isOptional: true, maxCount: 1),
                    .init(name: "tags", destination: "Tag", inverseName: "songs", isToMany: true, isOrdered: tagsOrdered, isOptional: true),
                ]),
                EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
                    .init(name: "songs", destination: "Song", inverseName: "tags", isToMany: true, isOptional: true),
                ]),
            ])
        }
        func rows(ordered: Bool) -> [CoreDataStoreWriter.Row] {
            [
                .init(entity: "Playlist", key: 1, values: ["title": "mix"]),
                .init(entity: "Song", key: 1, values: ["title": "a"], toOne: ["playlist": 1], order: ordered ? ["playlist": 3] : [:]),
                .init(entity: "Song", key: 2, values: ["title": "b"], toOne: ["playlist": 1], order: ordered ? ["playlist": 1] : [:]),
                .init(entity: "Song", key: 3, values: ["title": "c"], toOne: ["playlist": 1], order: ordered ? ["playlist": 2] : [:]),
                .init(entity: "Tag", key: 1, values: ["name": "x"], toMany: ["songs": [1, 2]]),
                .init(entity: "Tag", key: 2, values: ["name": "y"], toMany: ["songs": [1]]),
            ]
        }
        let (_, _, unordered, id) = try migrate(model("Music 1", playlistOrdered: true, tagsOrdered: false),
                                                model("Music 2", playlistOrdered: false, tagsOrdered: true), rows: rows(ordered: true))
        #expect(Set(try unordered.related("songs", of: id("Playlist", 1))) == [id("Song", 1), id("Song", 2), id("Song", 3)])
        #expect(try unordered.related("tags", of: id("Song", 1)).sorted { $0.rawValue < $1.rawValue } == [id("Tag", 1), id("Tag", 2)])
        #expect(try unordered.related("songs", of: id("Tag", 1)).count == 2)

        let (_, _, ordered, id2) = try migrate(model("Music 3", playlistOrdered: false, tagsOrdered: true),
                                               model("Music 4", playlistOrdered: true, tagsOrdered: false), rows: rows(ordered: false))
        #expect(Set(try ordered.related("songs", of: id2("Playlist", 1))) == [id2("Song", 1), id2("Song", 2), id2("Song", 3)])
        #expect(Set(try ordered.related("tags", of: id2("Song", 1))) == [id2("Tag", 1), id2("Tag", 2)])
    }

    @Test("a to-one becomes a to-many: an ordered one-to-many becoming many-to-many (both sides carried, order kept), and a to-one without inverse")
    func toOneBecomesToMany() throws {
        let old = ManagedModel(name: "Cars", versionName: "Cars 1", entities: [
            EntityDescription(name: "Car", attributes: [.init(name: "plate", type: .string)], relationships: [
                .init(name: "owner", destination: "Person", inverseName: "cars", isOptional: true, maxCount: 1),
                .init(name: "garage", destination: "Garage", isOptional: true, maxCount: 1),
            ]),
            EntityDescription(name: "Person", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "cars", destination: "Car", inverseName: "owner", isToMany: true, isOrdered: true, isOptional: true),
            ]),
            EntityDescription(name: "Garage", attributes: [.init(name: "city", type: .string)]),
        ])
        let new = ManagedModel(name: "Cars", versionName: "Cars 2", entities: [
            EntityDescription(name: "Car", attributes: [.init(name: "plate", type: .string)], relationships: [
                .init(name: "owners", destination: "Person", inverseName: "cars", isToMany: true, isOptional: true, elementID: "owner"),
                .init(name: "garages", destination: "Garage", isToMany: true, isOptional: true, elementID: "garage"),
            ]),
            EntityDescription(name: "Person", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "cars", destination: "Car", inverseName: "owners", isToMany: true, isOrdered: true, isOptional: true),
            ]),
            EntityDescription(name: "Garage", attributes: [.init(name: "city", type: .string)]),
        ])
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Person", key: 1, values: ["name": "Ann"]),
            .init(entity: "Person", key: 2, values: ["name": "Bob"]),
            .init(entity: "Garage", key: 1, values: ["city": "Oslo"]),
            .init(entity: "Car", key: 1, values: ["plate": "A1"], toOne: ["owner": 1, "garage": 1], order: ["owner": 2]),
            .init(entity: "Car", key: 2, values: ["plate": "B2"], toOne: ["owner": 1], order: ["owner": 1]),
            .init(entity: "Car", key: 3, values: ["plate": "C3"], toOne: ["owner": 2], order: ["owner": 1]),
            .init(entity: "Car", key: 4, values: ["plate": "D4"]),
        ]
        let (source, report, store, id) = try migrate(old, new, rows: rows)
        let changes = source.chain?.steps.first?.changes ?? []
        #expect(changes.contains("Person.cars becomes many-to-many (its members come from Car.owners)"), "\(changes)")
        #expect(try store.related("owners", of: id("Car", 1)) == [id("Person", 1)])
        #expect(try store.related("owners", of: id("Car", 3)) == [id("Person", 2)])
        #expect(try store.related("owners", of: id("Car", 4)).isEmpty)
        #expect(try store.related("cars", of: id("Person", 1)) == [id("Car", 2), id("Car", 1)], "members in the old order")
        #expect(try store.related("cars", of: id("Person", 2)) == [id("Car", 3)])
        #expect(try store.related("garages", of: id("Car", 1)) == [id("Garage", 1)])
        #expect(report.droppedData.isEmpty)
    }

    @Test("a new abstract parent takes an attribute up from two entities, and an entity leaves its hierarchy")
    func hierarchy() throws {
        let old = ManagedModel(name: "Zoo", versionName: "Zoo 1", entities: [
            EntityDescription(name: "Car", attributes: [.init(name: "name", type: .string), .init(name: "wheels", type: .integer16)]),
            EntityDescription(name: "Truck", attributes: [.init(name: "name", type: .string), .init(name: "load", type: .double)]),
            EntityDescription(name: "Animal", isAbstract: true, attributes: [.init(name: "name", type: .string)]),
            EntityDescription(name: "Dog", parentName: "Animal", attributes: [.init(name: "barks", type: .boolean)]),
            EntityDescription(name: "Cat", parentName: "Animal", attributes: [.init(name: "lives", type: .integer16)]),
        ])
        let new = ManagedModel(name: "Zoo", versionName: "Zoo 2", entities: [
            EntityDescription(name: "Vehicle", isAbstract: true, attributes: [.init(name: "name", type: .string)]),
            EntityDescription(name: "Car", parentName: "Vehicle", attributes: [.init(name: "wheels", type: .integer16)]),
            EntityDescription(name: "Truck", parentName: "Vehicle", attributes: [.init(name: "load", type: .double)]),
            EntityDescription(name: "Animal", isAbstract: true, attributes: [.init(name: "name", type: .string)]),
            EntityDescription(name: "Dog", attributes: [.init(name: "name", type: .string), .init(name: "barks", type: .boolean)]),
            EntityDescription(name: "Cat", parentName: "Animal", attributes: [.init(name: "lives", type: .integer16)]),
        ])
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Car", key: 1, values: ["name": "mini", "wheels": 4]),
            .init(entity: "Truck", key: 1, values: ["name": "big", "load": 12.5]),
            .init(entity: "Dog", key: 1, values: ["name": "Rex", "barks": 1]),
            .init(entity: "Cat", key: 2, values: ["name": "Tom", "lives": 9]),
        ]
        let (_, report, store, id) = try migrate(old, new, rows: rows)
        #expect(try store.globalIDs(of: "Vehicle") == [id("Car", 1), id("Truck", 1)])
        #expect(try store.record(id("Car", 1))?.values == ["name": .string("mini"), "wheels": .integer(4)])
        #expect(try store.record(id("Truck", 1))?.values == ["name": .string("big"), "load": .double(12.5)])
        #expect(try store.record(id("Dog", 1))?.values == ["name": .string("Rex"), "barks": .boolean(true)])
        #expect(try store.globalIDs(of: "Animal") == [id("Cat", 2)], "the dog left the hierarchy")
        #expect(try store.record(id("Cat", 2))?.values == ["name": .string("Tom"), "lives": .integer(9)])
        #expect(report.droppedData.isEmpty)
    }

    @Test("relationships renamed by their renaming identifiers, on both sides")
    func relationshipRenamed() throws {
        let old = ManagedModel(name: "Books", versionName: "Books 1", entities: [
            EntityDescription(name: "Book", attributes: [.init(name: "title", type: .string)], relationships: [
                .init(name: "writer", destination: "Author", inverseName: "books", isOptional: true, maxCount: 1),
            ]),
            EntityDescription(name: "Author", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "writer", isToMany: true, isOptional: true),
            ]),
        ])
        let new = ManagedModel(name: "Books", versionName: "Books 2", entities: [
            EntityDescription(name: "Book", attributes: [.init(name: "title", type: .string)], relationships: [
                .init(name: "author", destination: "Author", inverseName: "works", isOptional: true, maxCount: 1, elementID: "writer"),
            ]),
            EntityDescription(name: "Author", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "works", destination: "Book", inverseName: "author", isToMany: true, isOptional: true, elementID: "books"),
            ]),
        ])
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Author", key: 1, values: ["name": "Woolf"]),
            .init(entity: "Book", key: 1, values: ["title": "Orlando"], toOne: ["writer": 1]),
            .init(entity: "Book", key: 2, values: ["title": "Waves"], toOne: ["writer": 1]),
        ]
        let (source, report, store, id) = try migrate(old, new, rows: rows)
        #expect(source.chain?.steps.first?.changes.contains("Book.writer renamed to author") == true)
        #expect(try store.related("author", of: id("Book", 2)) == [id("Author", 1)])
        #expect(try store.related("works", of: id("Author", 1)).sorted { $0.rawValue < $1.rawValue } == [id("Book", 1), id("Book", 2)])
        #expect(report.droppedData.isEmpty)
    }

    static let notes1 = ManagedModel(name: "Notes", versionName: "Notes 1", entities: [
        EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string, isOptional: true)]),
        EntityDescription(name: "Draft", attributes: [.init(name: "text", type: .string, isOptional: true)]),
        EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string, isOptional: true)]),
    ])
    /// Notes and drafts gain a required UUID without a default.
    static let notes2 = ManagedModel(name: "Notes", versionName: "Notes 2", entities: [
        EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string, isOptional: true), .init(name: "uid", type: .uuid)]),
        EntityDescription(name: "Draft", attributes: [.init(name: "text", type: .string, isOptional: true), .init(name: "uid", type: .uuid)]),
        EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string, isOptional: true)]),
    ])

    @Test("a new required attribute without a default stops the step only for an entity with records, as in Core Data")
    func requiredWithoutDefault() throws {
        try fixture.write(Self.notes1, rows: [.init(entity: "Note", key: 1, values: ["text": "hello"])])
        let bundle = ModelBundle(name: "Notes", versions: [Self.notes1, Self.notes2], currentVersionName: "Notes 2")
        let error = #expect(throws: StepInferenceError.self) {
            try CoreDataMigrationSource(path: path("Notes 1.sqlite"), bundle: bundle, bundlePath: path("Notes.xcdatamodeld"),
                                        versionOverride: nil, targetVersion: nil)
        }
        #expect(error?.problems == ["Note.uid is new, required and has no default value: the one record of Note would have none, and Core Data's own migration fails on them too (give it a constant, or a value per record with generate: uuid-from-global-id)"], "Draft has no records: no problem")
        #expect(error?.hint?.contains("--steps DIR") == true && error?.hint?.contains("generate: uuid-from-global-id") == true)

        // No notes and no drafts: nothing needs a value, and the tags go through.
        let (source, _, store, _) = try migrate(Self.notes1, Self.notes2, rows: [.init(entity: "Tag", key: 1, values: ["name": "red"])])
        #expect(source.chain?.steps.count == 1)
        #expect(try store.liveRecordCounts() == ["Note": 0, "Draft": 0, "Tag": 1])
    }

    @Test("a step file kept in a folder of its own gives every record a UUID made from its global ID, the same on every run")
    func generatedUUIDs() throws {
        let steps = folder.appendingPathComponent("my steps")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        try Data("from: Notes 1\nto: Notes 2\nentities:\n  - entity: Note\n    attributes:\n      uid: {generate: uuid-from-global-id}\n".utf8)
            .write(to: steps.appendingPathComponent("Notes 1 to Notes 2.step.yaml"))
        let rows: [CoreDataStoreWriter.Row] = (1...3).map { .init(entity: "Note", key: $0, values: ["text": "note \($0)"]) }
        let (source, report, store, id) = try migrate(Self.notes1, Self.notes2, rows: rows, stepsFolder: steps.path)
        #expect(source.chain?.steps.first?.summary.contains("step file Notes 1 to Notes 2.step.yaml") == true)
        var uids: Set<UUID> = []
        for key in Int64(1)...3 {
            guard case .uuid(let uid)? = try store.record(id("Note", key))?.values["uid"] else {
                Issue.record("note \(key) has no uid")
                continue
            }
            #expect(uid == ValueGenerator.uuidFromGlobalID.value(for: id("Note", key), as: .uuid).uuidValue)
            #expect(uid.uuidString.dropFirst(14).first == "8", "version 8")
            uids.insert(uid)
        }
        #expect(uids.count == 3)
        let again = try Migrator(source: source, target: path("again.store"), options: MigrationOptions()).run()
        #expect(again.digest == report.digest && report.digest != nil)
    }

    @Test("a chain from a Core Data store where a step file requires it: 1 → 2 inferred, 2 → 3 through the step file")
    func chainThroughAStepFile() throws {
        let v1 = ManagedModel(name: "Lab", versionName: "Lab 1", entities: [
            EntityDescription(name: "Sample", attributes: [.init(name: "code", type: .string, isOptional: true)]),
        ])
        var v2 = v1
        v2.versionName = "Lab 2"
        v2.entities[0].attributes.append(.init(name: "site", type: .string, isOptional: true))
        var v3 = v2
        v3.versionName = "Lab 3"
        v3.entities[0].attributes[0] = .init(name: "code", type: .integer32, isOptional: true)
        let steps = folder.appendingPathComponent("steps")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        try Data("from: Lab 2\nto: Lab 3\nentities:\n  - entity: Sample\n    attributes:\n      code: {convert: string-to-integer}\n".utf8)
            .write(to: steps.appendingPathComponent("Lab 2 to Lab 3.step.yaml"))
        let (_, writer) = try fixture.write(v1, rows: [.init(entity: "Sample", key: 1, values: ["code": " 17 "]), .init(entity: "Sample", key: 2)])
        let bundle = ModelBundle(name: "Lab", versions: [v1, v2, v3], currentVersionName: "Lab 3")
        let source = try CoreDataMigrationSource(path: path("Lab 1.sqlite"), bundle: bundle, bundlePath: path("Lab.xcdatamodeld"),
                                                 versionOverride: nil, targetVersion: nil, stepsFolder: steps.path)
        #expect(source.chain?.steps.map { "\($0.from) → \($0.to)" } == ["Lab 1 → Lab 2", "Lab 2 → Lab 3"])
        #expect(source.chain?.steps.first?.origin == .inferred)
        let report = try Migrator(source: source, target: path("lab3.store"), options: MigrationOptions()).run()
        #expect(report.outcome == .completed && report.verified)
        let store = try SyncStore.open(at: path("lab3.store"), readOnly: true)
        #expect(try store.record(GlobalID("x-coredata://\(writer.storeUUID)/Sample/p1"))?.values["code"] == .integer(17))
        #expect((try store.record(GlobalID("x-coredata://\(writer.storeUUID)/Sample/p2"))?.values["code"] ?? .null) == .null)
        // Without the folder of step files, the one step 1 → 3 cannot be inferred and no chain exists.
        #expect(throws: StepInferenceError.self) {
            try CoreDataMigrationSource(path: path("Lab 1.sqlite"), bundle: bundle, bundlePath: path("Lab.xcdatamodeld"), versionOverride: nil, targetVersion: nil)
        }
    }

    @Test("with refusesDroppedData, a migration that would drop values stops before writing anything, naming them")
    func refusingDroppedData() throws {
        let old = Self.notes1
        var new = old
        new.versionName = "Notes 2"
        new.entities[0].attributes = []
        try fixture.write(old, rows: [.init(entity: "Note", key: 1, values: ["text": "kept?"]), .init(entity: "Note", key: 2)])
        let bundle = ModelBundle(name: "Notes", versions: [old, new], currentVersionName: "Notes 2")
        let source = try CoreDataMigrationSource(path: path("Notes 1.sqlite"), bundle: bundle, bundlePath: path("Notes.xcdatamodeld"),
                                                 versionOverride: nil, targetVersion: nil)
        var options = MigrationOptions()
        options.refusesDroppedData = true
        let error = #expect(throws: MaintenanceError.self) { try Migrator(source: source, target: path("n.store"), options: options).run() }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("Note.text (1 value), in Notes 1 → Notes 2") == true, "\(error?.problem ?? "")")
        #expect(!FileManager.default.fileExists(atPath: path("n.store")))
        #expect(throws: MaintenanceError.self) { try Migrator(source: source, target: path("n.store"), options: options).plan() }
        let plan = try Migrator(source: source, target: path("n.store"), options: MigrationOptions()).plan()
        #expect(plan.droppedData == [DroppedData(kind: .attribute, entity: "Note", property: "text", values: 1, step: "Notes 1 → Notes 2")])
    }
}

extension AttributeValue {
    /// The UUID held, if any.
    var uuidValue: UUID? {
        if case .uuid(let uuid) = self { return uuid }
        return nil
    }
}
