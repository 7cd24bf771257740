import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Lightweight step inference: each inferred case, and each refusal.
@Suite struct StoreMigrationInferenceTests {
    private let path = "/models/Library 1 to Library 2.step.yaml"

    private func infer(_ old: ManagedModel, _ new: ManagedModel) throws -> ModelStep {
        try StepInference.step(from: old, to: new, file: nil, stepFilePath: path)
    }

    private func refusal(_ old: ManagedModel, _ new: ManagedModel) -> StepInferenceError? {
        do {
            _ = try infer(old, new)
            return nil
        } catch let error as StepInferenceError {
            return error
        } catch {
            return nil
        }
    }

    private func model(_ version: String, _ attributes: [AttributeDescription]) -> ManagedModel {
        ManagedModel(name: "M", versionName: version, entities: [EntityDescription(name: "E", attributes: attributes)])
    }

    private func apply(_ step: ModelStep, _ values: AttributeValues, entity: String = "E") -> StepResult? {
        step.apply(to: ImportRecord(entity: entity, globalID: GlobalID("g"), values: values, seed: SeedMark(set: "s", version: 2)))
    }

    @Test func everyLightweightChangeOfTheLibraryIsInferred() throws {
        let step = try infer(StoreMigrationModels.version1(), StoreMigrationModels.version2())
        #expect(step.origin == .inferred)
        #expect(Set(step.entities.keys) == ["Book", "Shelf", "Tag"], "Scratch is removed: its records go nowhere")
        #expect(step.entities["Shelf"]?.target == "Case")
        for change in ["Book.title renamed to name", "Book.pages widened from Integer 16 to Integer 32", "Book.isbn now required (empty values take its default)",
                       "Book.note removed", "Book.weight widened from Float to Double", "Book.rating added", "entity Scratch removed",
                       "entity Shelf renamed to Case", "entity Author added"] {
            #expect(step.changes.contains(change), "\(change) in \(step.changes)")
        }
        let book = ImportRecord(entity: "Book", globalID: GlobalID("b1"),
                                values: ["title": .string("Dune"), "pages": .integer(412), "isbn": .null, "note": .string("x"), "weight": .double(0.5)],
                                toOne: ["shelf": GlobalID("s1")], toOneOrder: ["shelf": 3], toMany: ["tags": [GlobalID("t2"), GlobalID("t1")]],
                                seed: SeedMark(set: "starter", version: 1))
        guard case .record(let next)? = step.apply(to: book) else { Issue.record("not carried over"); return }
        #expect(next.entity == "Book")
        #expect(next.globalID == GlobalID("b1"))
        #expect(next.seed == SeedMark(set: "starter", version: 1))
        #expect(next.values == ["name": .string("Dune"), "pages": .integer(412), "isbn": .string("none"), "weight": .double(0.5)])
        #expect(next.toOne == ["shelf": GlobalID("s1")])
        #expect(next.toOneOrder == ["shelf": 3])
        #expect(next.toMany == ["tags": [GlobalID("t2"), GlobalID("t1")]])
        #expect(step.apply(to: ImportRecord(entity: "Scratch", globalID: GlobalID("x"))) == nil)
    }

    @Test func integersWidenToDoubleAndDecimal() throws {
        let step = try infer(model("M 1", [.init(name: "a", type: .integer64), .init(name: "b", type: .integer16)]),
                             model("M 2", [.init(name: "a", type: .double), .init(name: "b", type: .decimal)]))
        #expect(apply(step, ["a": .integer(3), "b": .integer(-7)]) == .record(ImportRecord(
            entity: "E", globalID: GlobalID("g"), values: ["a": .double(3), "b": .decimal("-7")], seed: SeedMark(set: "s", version: 2))))
    }

    @Test func requiredBecomesOptionalAndEmptyValuesStayEmpty() throws {
        let step = try infer(model("M 1", [.init(name: "a", type: .string)]), model("M 2", [.init(name: "a", type: .string, isOptional: true)]))
        guard case .record(let next)? = apply(step, ["a": .null]) else { Issue.record("not carried over"); return }
        #expect(next.values["a"] == .null)
    }

    @Test func anAddedRequiredAttributeWithADefaultTakesIt() throws {
        let step = try infer(model("M 1", []), model("M 2", [.init(name: "a", type: .integer32, defaultValueString: "5", defaultValue: .integer(5))]))
        guard case .record(let next)? = apply(step, [:]) else { Issue.record("not carried over"); return }
        #expect(next.values["a"] == nil, "left out: the store writes the model default")
        #expect(step.changes == ["E.a added"])
    }

    @Test func theSameVersionTwiceChangesNothing() throws {
        let step = try infer(StoreMigrationModels.version1(), StoreMigrationModels.version1())
        #expect(step.changes.isEmpty)
        #expect(step.entities.count == 4)
    }

    @Test(arguments: [
        ("number to text", [AttributeDescription(name: "a", type: .integer32)], [AttributeDescription(name: "a", type: .string)],
         "E.a: type changes from Integer 32 to String"),
        ("date to number", [.init(name: "a", type: .date)], [.init(name: "a", type: .double)], "from Date to Double"),
        ("text to Boolean", [.init(name: "a", type: .string)], [.init(name: "a", type: .boolean)], "from String to Boolean"),
        ("required without default", [], [.init(name: "a", type: .string)], "E.a is new, required and has no default value"),
        ("optional to required without default", [.init(name: "a", type: .string, isOptional: true)], [.init(name: "a", type: .string)],
         "E.a becomes required and has no default value"),
    ])
    func refusals(_ name: String, _ old: [AttributeDescription], _ new: [AttributeDescription], _ expected: String) throws {
        let error = try #require(refusal(model("M 1", old), model("M 2", new)), "\(name) was inferred")
        #expect(error.problems.joined().contains(expected), "\(error.problems)")
        #expect(error.description.contains("'M 1' to 'M 2'"))
        #expect(error.hint?.contains(path) == true)
        #expect(error.failureKind == .badInput)
    }

    @Test func anEntitySplitIsRefused() throws {
        let old = ManagedModel(name: "M", versionName: "M 1", entities: [EntityDescription(name: "A")])
        let new = ManagedModel(name: "M", versionName: "M 2", entities: [EntityDescription(name: "A"), EntityDescription(name: "B", elementID: "A")])
        let error = try #require(refusal(old, new))
        #expect(error.problems == ["entities B and A both match A (an entity split is not inferred)"]
                || error.problems == ["entities A and B both match A (an entity split is not inferred)"])
    }

    @Test func aRelationshipThatChangesCardinalityOrDestinationIsRefused() throws {
        var new = StoreMigrationModels.version1()
        new.versionName = "Library 1b"
        new.entities[0].relationships[0] = .init(name: "shelf", destination: "Tag", isOptional: true)
        let error = try #require(refusal(StoreMigrationModels.version1(), new))
        #expect(error.problems.contains { $0.contains("Book.shelf: its destination changes from Shelf to Tag") })
        var toMany = StoreMigrationModels.version1()
        toMany.versionName = "Library 1c"
        toMany.entities[2].relationships = []
        toMany.entities[0].relationships[1] = .init(name: "tags", destination: "Tag", isOptional: true)
        let second = try #require(refusal(StoreMigrationModels.version1(), toMany))
        #expect(second.problems.contains { $0.contains("Book.tags changes from to-many to to-one") })
    }

    @Test func anEntityThatBecomesAbstractIsRefused() throws {
        let old = ManagedModel(name: "M", versionName: "M 1", entities: [EntityDescription(name: "A")])
        let new = ManagedModel(name: "M", versionName: "M 2", entities: [EntityDescription(name: "A", isAbstract: true)])
        #expect(refusal(old, new)?.problems.first?.contains("abstract") == true)
    }

    @Test func declaredConversionsConvertAndRejectWhatTheyCannot() {
        #expect(ValueConversion.stringToInteger.convert(.string(" 42 "), to: .integer16) == .success(.integer(42)))
        #expect(ValueConversion.stringToInteger.convert(.string("4x"), to: .integer16) == .failure(ConversionFailure("the text '4x' is not a whole number")))
        #expect(ValueConversion.narrowInteger.convert(.integer(70_000), to: .integer16) == .failure(ConversionFailure("70000 does not fit in Integer 16")))
        #expect(ValueConversion.doubleToInteger.convert(.double(2.5), to: .integer32) == .success(.integer(3)))
        #expect(ValueConversion.integerToString.convert(.integer(-3), to: .string) == .success(.string("-3")))
        #expect(ValueConversion.integerToBoolean.convert(.integer(2), to: .boolean) == .success(.boolean(true)))
        #expect(ValueConversion.stringToFloatingPoint.convert(.null, to: .double) == .success(.null))
        #expect(ValueConversion.inferred(from: .integer64, to: .integer32) == .numeric)
        #expect(ValueConversion.inferred(from: .string, to: .integer32) == nil)
        #expect(ValueConversion.inferred(from: .float, to: .double) == .widen)
        #expect(!ValueConversion.stringToInteger.applies(from: .integer16, to: .string))
    }
}
