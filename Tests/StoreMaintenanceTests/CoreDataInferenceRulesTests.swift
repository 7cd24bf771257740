import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// The attribute type changes Core Data's lightweight migration infers and those it refuses, and
/// the relationship and entity changes it refuses, each with a Core Data store that needs it
/// (laid out as Core Data lays one out, with its version's entity hashes), migrated with the
/// app's bundle and read back: values that fit are carried exactly, the others rejected; a
/// refused change names itself, and the step file that completes it gives the values it says.
@Suite struct CoreDataInferenceRulesTests {
    let fixture = CoreDataRuleFixture(prefix: "coredata-rules")

    /// Version 1: numbers of every kind and a to-one without inverse.
    static let version1 = ManagedModel(name: "Lab", versionName: "Lab 1", entities: [
        EntityDescription(name: "Sample", attributes: [
            .init(name: "count", type: .integer64, isOptional: true),
            .init(name: "ratio", type: .double, isOptional: true),
            .init(name: "flag", type: .boolean, isOptional: true),
            .init(name: "level", type: .integer16, isOptional: true),
            .init(name: "amount", type: .decimal, isOptional: true),
            .init(name: "weight", type: .double, isOptional: true),
            .init(name: "price", type: .double, isOptional: true),
            .init(name: "size", type: .integer32, isOptional: true),
        ], relationships: [.init(name: "shelf", destination: "Shelf", isOptional: true, maxCount: 1)]),
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
            .init(name: "price", type: .decimal, isOptional: true),       // Double → Decimal
            .init(name: "size", type: .integer16, isOptional: true),      // Integer 32 → 16
        ], relationships: [.init(name: "shelves", destination: "Shelf", isToMany: true, isOptional: true, elementID: "shelf")]),
        EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string)]),
    ])

    @Test("numeric and Boolean type changes and a to-one becoming a to-many are inferred from a Core Data store; values that do not fit exactly are rejected")
    func numericTypeChanges() throws {
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Shelf", key: 1, values: ["label": "A"]),
            .init(entity: "Sample", key: 1, values: ["count": 5, "ratio": 3.0, "flag": 1, "level": 1, "amount": 2.5, "weight": 0.5,
                                                     "price": 1.25, "size": -300], toOne: ["shelf": 1]),
            .init(entity: "Sample", key: 2, values: ["count": 70_000]),
            .init(entity: "Sample", key: 3, values: ["ratio": 2.5]),
            .init(entity: "Sample", key: 4, values: ["level": 2]),
            .init(entity: "Sample", key: 5),
            .init(entity: "Sample", key: 6, values: ["flag": 0, "level": 0, "size": 32_767]),
        ]
        let migrated = try fixture.migrate(Self.version1, Self.version2, rows: rows, options: MigrationOptions(onError: .skip))
        let (store, id) = (migrated.store, migrated.id)
        let changes = migrated.source.chain?.steps.first?.changes ?? []
        #expect(migrated.source.chain?.steps.count == 1)
        #expect(changes.contains("Sample.shelves changes from to-one to to-many (the old target becomes its only member)"), "\(changes)")
        #expect(migrated.report.streams.first { $0.entity == "Sample" }?.rejected == 3)
        let fits = try #require(try store.record(id("Sample", 1)))
        #expect(fits.values["count"] == .integer(5) && fits.values["ratio"] == .integer(3) && fits.values["flag"] == .integer(1))
        #expect(fits.values["level"] == .boolean(true) && fits.values["amount"] == .double(2.5) && fits.values["weight"] == .double(0.5))
        #expect(fits.values["price"] == .decimal("1.25") && fits.values["size"] == .integer(-300), "\(fits.values)")
        #expect(try store.related("shelves", of: id("Sample", 1)) == [id("Shelf", 1)])
        let zeros = try #require(try store.record(id("Sample", 6)))
        #expect(zeros.values["flag"] == .integer(0) && zeros.values["level"] == .boolean(false) && zeros.values["size"] == .integer(32_767))
        let empty = try #require(try store.record(id("Sample", 5)))
        #expect(empty.values.values.allSatisfy { $0 == .null }, "\(empty.values)")
        #expect(try store.related("shelves", of: id("Sample", 5)).isEmpty)
        for rejected: Int64 in [2, 3, 4] { #expect(try store.record(id("Sample", rejected)) == nil, "Sample \(rejected)") }
        #expect(try store.record(id("Shelf", 1))?.values["label"] == .string("A"))
        let lines = try String(contentsOfFile: migrated.targetPath + ".rejected.jsonl", encoding: .utf8)
        #expect(lines.contains("70000 does not fit in Integer 16 exactly"))
        #expect(lines.contains("2.5 does not fit in Integer 32 exactly"))
        #expect(lines.contains("2 is neither 0 nor 1"))
    }

    /// A type change Core Data does not infer, the value a store holds, the step-file rule that
    /// completes the step, and the value the rule gives.
    struct Refused: Sendable, CustomStringConvertible {
        var from: AttributeType
        var to: AttributeType
        var stored: String
        var rule: String
        var expected: AttributeValue?
        var description: String { "\(from.rawValue) → \(to.rawValue)" }

        /// `stored` as the column holds it: 'text', a number with a point, or a whole number.
        var storedValue: any DatabaseValueConvertible {
            if stored.hasPrefix("'") { return String(stored.dropFirst().dropLast()) }
            if stored.contains(".") { return Double(stored) ?? 0 }
            return Int64(stored) ?? 0
        }
    }

    @Test("a type change Core Data refuses stops the step before writing, naming it; the step file's rule gives the values",
          arguments: [
            Refused(from: .string, to: .integer32, stored: "' 42 '", rule: "{convert: string-to-integer}", expected: .integer(42)),
            Refused(from: .integer32, to: .string, stored: "7", rule: "{convert: integer-to-string}", expected: .string("7")),
            Refused(from: .double, to: .string, stored: "0.5", rule: "{convert: double-to-string}", expected: .string("0.5")),
            Refused(from: .date, to: .double, stored: "100.0", rule: "{drop: true}", expected: nil),
            Refused(from: .string, to: .boolean, stored: "'yes'", rule: "{drop: true}", expected: nil),
          ])
    func refusedTypeChange(_ change: Refused) throws {
        let old = ManagedModel(name: "Kit", versionName: "Kit 1", entities: [
            EntityDescription(name: "Part", attributes: [.init(name: "code", type: change.from, isOptional: true), .init(name: "name", type: .string)]),
        ])
        var new = old
        new.versionName = "Kit 2"
        new.entities[0].attributes[0].type = change.to
        let rows: [CoreDataStoreWriter.Row] = [
            .init(entity: "Part", key: 1, values: ["code": change.storedValue, "name": "bolt"]),
            .init(entity: "Part", key: 2, values: ["name": "nut"]),
        ]
        let error = #expect(throws: StepInferenceError.self) { try fixture.source(old, new, rows: rows) }
        #expect(error?.problems == ["Part.code: type changes from \(change.from.rawValue) to \(change.to.rawValue), which is not a widening (declare a conversion, or drop the old values)"],
                "\(error?.problems ?? [])")
        #expect(error?.failureKind == .badInput && error?.hint?.contains("Kit 1 to Kit 2.step.yaml") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Kit 2.store")))

        let steps = try fixture.stepsFolder(from: "Kit 1", to: "Kit 2", "entities:\n  - entity: Part\n    attributes:\n      code: \(change.rule)\n")
        let migrated = try fixture.migrate(old, new, rows: rows, stepsFolder: steps)
        let bolt = try #require(try migrated.store.record(migrated.id("Part", 1)))
        if let expected = change.expected {
            #expect(bolt.values["code"] == expected, "\(bolt.values)")
        } else {
            #expect((bolt.values["code"] ?? .null) == .null, "dropped: \(bolt.values)")
            #expect(migrated.report.droppedData == [DroppedData(kind: .attribute, entity: "Part", property: "code", values: 1, step: "Kit 1 → Kit 2")])
        }
        #expect(bolt.values["name"] == .string("bolt"))
        let nut = try #require(try migrated.store.record(migrated.id("Part", 2)))
        #expect((nut.values["code"] ?? .null) == .null && nut.values["name"] == .string("nut"))
    }

    /// The store of the refused-relationship cases: shelves holding books (one-to-many), books with
    /// tags (many-to-many), and one book of a kind.
    static let library1 = ManagedModel(name: "Library", versionName: "Library 1", entities: [
        EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string)], relationships: [
            .init(name: "books", destination: "Book", inverseName: "shelf", isToMany: true, isOptional: true),
        ]),
        EntityDescription(name: "Book", attributes: [.init(name: "title", type: .string)], relationships: [
            .init(name: "shelf", destination: "Shelf", inverseName: "books", isOptional: true, maxCount: 1),
            .init(name: "tags", destination: "Tag", inverseName: "books", isToMany: true, isOptional: true),
        ]),
        EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
            .init(name: "books", destination: "Book", inverseName: "tags", isToMany: true, isOptional: true),
        ]),
        EntityDescription(name: "Box", attributes: [.init(name: "label", type: .string)]),
    ])

    static var libraryRows: [CoreDataStoreWriter.Row] { [
        .init(entity: "Shelf", key: 1, values: ["label": "top"]),
        .init(entity: "Tag", key: 1, values: ["name": "old"], toMany: ["books": [1, 2]]),
        .init(entity: "Book", key: 1, values: ["title": "Emma"], toOne: ["shelf": 1]),
        .init(entity: "Book", key: 2, values: ["title": "Persuasion"], toOne: ["shelf": 1]),
        .init(entity: "Box", key: 1, values: ["label": "attic"]),
    ] }

    /// A relationship or entity change Core Data does not infer, and the problem it is named by.
    struct RefusedShape: Sendable, CustomStringConvertible {
        var name: String
        var edit: @Sendable (inout ManagedModel) -> Void
        var problem: String
        var description: String { name }
    }

    @Test("relationship and entity changes Core Data refuses stop the step before writing, each named",
          arguments: [
            RefusedShape(name: "to-many becomes to-one", edit: { model in
                model.entities[0].relationships[0] = .init(name: "books", destination: "Book", inverseName: "shelf", isOptional: true, maxCount: 1)
                model.entities[1].relationships[0] = .init(name: "shelf", destination: "Shelf", inverseName: "books", isOptional: true, maxCount: 1)
            }, problem: "Shelf.books changes from to-many to to-one, which Core Data does not infer either (drop the old members)"),
            RefusedShape(name: "destination changes", edit: { model in
                model.entities[1].relationships[0] = .init(name: "shelf", destination: "Box", isOptional: true, maxCount: 1)
                model.entities[0].relationships = []
            }, problem: "Book.shelf: its destination changes from Shelf to Box (drop the old members)"),
            RefusedShape(name: "many-to-many becomes one-to-many", edit: { model in
                model.entities[1].relationships[1] = .init(name: "tags", destination: "Tag", inverseName: "book", isToMany: true, isOptional: true)
                model.entities[2].relationships[0] = .init(name: "book", destination: "Book", inverseName: "tags", isOptional: true, maxCount: 1,
                                                           elementID: "books")
            }, problem: "Tag.book changes from to-many to to-one, which Core Data does not infer either (drop the old members)"),
            RefusedShape(name: "an entity split", edit: { model in
                model.entities.append(EntityDescription(name: "Crate", attributes: [.init(name: "label", type: .string)], elementID: "Box"))
            }, problem: "both match Box (an entity split is not inferred)"),
            RefusedShape(name: "a concrete entity becomes abstract", edit: { model in
                model.entities[3].isAbstract = true
            }, problem: "Box matches Box, which is abstract: its records have nowhere to go (drop them, or map them to a concrete entity)"),
          ])
    func refusedShapes(_ change: RefusedShape) throws {
        var new = Self.library1
        new.versionName = "Library 2"
        change.edit(&new)
        let error = #expect(throws: StepInferenceError.self) { try fixture.source(Self.library1, new, rows: Self.libraryRows) }
        #expect(error?.problems.contains { $0.contains(change.problem) } == true, "\(error?.problems ?? [])")
        #expect(error?.description.contains("'Library 1' to 'Library 2'") == true && error?.failureKind == .badInput)
    }
}
