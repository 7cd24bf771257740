import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// How the planner goes from a store's version to the target: one step as Core Data takes it, a
/// step file or mapping model for exactly that pair when there is one, a chain only when needed.
@Suite struct StepPlannerTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("step-planner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var bundlePath: String { folder.appendingPathComponent("Library.xcdatamodeld").path }

    /// Version 2 with an optional `subtitle` added: reachable from version 1 in one inferred step.
    private static func version3() -> ManagedModel {
        var model = StoreMigrationModels.version2()
        model.versionName = "Library 3"
        model.entities[0].attributes.append(.init(name: "subtitle", type: .string, isOptional: true))
        return model
    }

    @Test func oneStepStraightToTheTargetNotThroughEveryVersion() throws {
        let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2(), Self.version3()],
                                 currentVersionName: "Library 3")
        let chain = try StepPlanner.chain(from: StoreMigrationModels.version1(), bundle: bundle, bundlePath: bundlePath, targetVersion: nil)
        #expect(chain.steps.count == 1)
        #expect(chain.steps.first?.from == "Library 1" && chain.steps.first?.to == "Library 3")
        #expect(chain.steps.first?.changes.contains("Book.subtitle added") == true)
        #expect(chain.targetEntity(of: "Shelf") == "Case")
    }

    @Test func aTargetTheBundleListsFirstIsReachedToo() throws {
        // CoreDataPlus keeps its first version current: a store of a later version goes back to it.
        let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2()],
                                 currentVersionName: "Library 1")
        let chain = try StepPlanner.chain(from: StoreMigrationModels.version2(), bundle: bundle, bundlePath: bundlePath, targetVersion: nil)
        #expect(chain.steps.map(\.from) == ["Library 2"] && chain.steps.map(\.to) == ["Library 1"])
        #expect(chain.targetEntity(of: "Case") == "Shelf")
        // Integer 32 back to Integer 16: a numeric change Core Data accepts, value by value.
        #expect(chain.steps[0].entities["Book"]?.attributes.contains { $0.name == "pages" && $0.origin == .copy(from: "pages", conversion: .numeric) } == true)
    }

    @Test func aStepFileForThePairIsTakenEvenWhenInferenceWouldDo() throws {
        let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), StoreMigrationModels.version2()],
                                 currentVersionName: "Library 2")
        let file = folder.appendingPathComponent("Library 1 to Library 2.step.yaml")
        try Data("from: Library 1\nto: Library 2\nentities:\n  - entity: Book\n    attributes:\n      rating: {value: 3}\n".utf8).write(to: file)
        let chain = try StepPlanner.chain(from: StoreMigrationModels.version1(), bundle: bundle, bundlePath: bundlePath, targetVersion: nil)
        #expect(chain.steps.count == 1)
        guard case .file(let path, _)? = chain.steps.first?.origin else {
            Issue.record("not from the step file: \(String(describing: chain.steps.first?.origin))")
            return
        }
        #expect(path == file.path)
        #expect(chain.checksum == SHA256.hexDigest(of: try Data(contentsOf: file)))
    }

    @Test func aDroppedAttributeThatAnotherVersionRenamesIsPointedOut() throws {
        var renaming = StoreMigrationModels.version1()
        renaming.versionName = "Library 1b"
        renaming.entities[0].attributes[3] = .init(name: "remark", type: .string, isOptional: true, elementID: "note")
        var plain = renaming
        plain.versionName = "Library 1c"
        plain.entities[0].attributes[3].elementID = nil
        let bundle = ModelBundle(name: "Library", versions: [StoreMigrationModels.version1(), renaming, plain], currentVersionName: "Library 1c")
        let chain = try StepPlanner.chain(from: StoreMigrationModels.version1(), bundle: bundle, bundlePath: bundlePath, targetVersion: nil)
        #expect(chain.steps[0].changes.contains { $0.contains("Book.note is dropped though version 'Library 1b' renames it remark") }, "\(chain.steps[0].changes)")
    }

    @Test("a corpus mapping model whose entity mapping names a custom policy needs a block for that entity; with it, the rest applies",
          .enabled(if: StepPlannerTests.corpusIsPresent, "the shared corpus is absent"))
    func corpusMappingModels() throws {
        let project = Self.corpus.appendingPathComponent("wibosco-CoreDataMigrationRevised-Example")
        let bundle = try XcodeModelReader().readModel(at: project.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let mapping = try XcodeMappingReader().read(at: project.appendingPathComponent("mappings/Migration2to3ModelMapping.xcmappingmodel"))
        let old = try bundle.version(named: "CoreDataMigration_Example 2")
        let new = try bundle.version(named: "CoreDataMigration_Example 3")
        let stepFile = folder.appendingPathComponent("CoreDataMigration_Example 2 to CoreDataMigration_Example 3.step.yaml").path
        do {
            _ = try StepInference.step(from: old, to: new, mapping: mapping, file: nil, stepFilePath: stepFile)
            Issue.record("a custom migration policy was ignored")
        } catch let error as StepInferenceError {
            #expect(error.problems.count == 1, "\(error.problems)")
            #expect(error.problems.first?.contains("PostToPost") == true && error.problems.first?.contains("Post2ToPost3MigrationPolicy") == true)
            #expect(error.mappingModel == mapping.path && error.stepFile == stepFile)
        }
        try Data("from: CoreDataMigration_Example 2\nto: CoreDataMigration_Example 3\nentities:\n  - entity: Post\n".utf8).write(to: URL(fileURLWithPath: stepFile))
        let step = try StepInference.step(from: old, to: new, mapping: mapping, file: try StepFileReader.read(path: stepFile), stepFilePath: stepFile)
        guard case .mappingModel(_, let checksum, let file?, _) = step.origin else {
            Issue.record("origin \(step.origin)")
            return
        }
        #expect(checksum == mapping.checksum && file == stepFile)
        let post = try #require(step.entities["Post"])
        #expect(Set(post.attributes.compactMap { attribute -> String? in
            if case .copy(let from, .same) = attribute.origin, from == attribute.name { return from }
            return nil
        }) == ["date", "hexColor", "postID"])
        #expect(step.changes.contains("Post.content removed"))
    }

    @Test("every corpus mapping model becomes a step, or names each entity mapping and property that needs the step file",
          .enabled(if: StepPlannerTests.corpusIsPresent, "the shared corpus is absent"))
    func everyCorpusMappingModelPlans() throws {
        var planned: [String: String] = [:]
        for url in XcodeMappingReader.mappingModels(in: Self.corpus) {
            let mapping = try XcodeMappingReader().read(at: url)
            let project = url.deletingLastPathComponent().deletingLastPathComponent()
            let bundleName = try #require(try FileManager.default.contentsOfDirectory(atPath: project.path).first { $0.hasSuffix(".xcdatamodeld") })
            let bundle = try XcodeModelReader().readModel(at: project.appendingPathComponent(bundleName))
            let old = try bundle.version(named: mapping.sourceVersion)
            let new = try bundle.version(named: mapping.destinationVersion)
            do {
                let step = try StepInference.step(from: old, to: new, mapping: mapping, file: nil, stepFilePath: folder.appendingPathComponent("x.step.yaml").path)
                planned[url.lastPathComponent] = "step of \(step.entities.count) entities"
            } catch let error as StepInferenceError {
                #expect(error.mappingModel == mapping.path)
                for problem in error.problems { #expect(problem.hasPrefix("entity mapping"), "\(url.lastPathComponent): \(problem)") }
                planned[url.lastPathComponent] = error.problems.joined(separator: "\n")
            }
        }
        #expect(planned.count == 7)
        // Moody 2 → 3 maps relationships through Xcode's key path fields, $source.country.continent among them.
        #expect(planned["Moody 2-Moody 3.xcmappingmodel"]?.hasPrefix("step") == true, "\(planned)")
        // Moody 4 → 5 takes a country's continent code through $source.continent.numericISO3166Code.
        #expect(planned["Moody 4-Moody 5.xcmappingmodel"]?.hasPrefix("step") == true, "\(planned)")
        // LoopKit maps two entities into one, which a step does not do without the step file's choice.
        #expect(planned["Modelv1v4.xcmappingmodel"]?.contains("CachedCarbObjectToCachedCarbObject and DeletedCarbObjectToCachedCarbObject all write CachedCarbObject") == true,
                "\(planned)")
        #expect(planned["Moody 5-Moody 6.xcmappingmodel"]?.contains("Country5ToCountry6Policy") == true, "\(planned)")
    }

    @Test("a mapping model's key paths read other records' values, and its relationship key paths their targets")
    func keyPathsThroughLookups() throws {
        let old = ManagedModel(name: "Moods", versionName: "Moods 1", entities: [
            EntityDescription(name: "Continent", attributes: [.init(name: "code", type: .integer16)]),
            EntityDescription(name: "Country", attributes: [.init(name: "name", type: .string)],
                              relationships: [.init(name: "continent", destination: "Continent", isOptional: true)]),
            EntityDescription(name: "Mood", attributes: [.init(name: "score", type: .integer32), .init(name: "note", type: .string, isOptional: true)],
                              relationships: [.init(name: "country", destination: "Country", isOptional: true)]),
        ])
        var new = old
        new.versionName = "Moods 2"
        new.entities[2].attributes = [.init(name: "continentCode", type: .integer64, isOptional: true), .init(name: "label", type: .string, isOptional: true),
                                      .init(name: "kind", type: .string, isOptional: true), .init(name: "note", type: .string, isOptional: true)]
        new.entities[2].relationships.append(.init(name: "continent", destination: "Continent", isOptional: true))
        let source = MappingExpression.variable("source")
        let mapping = XcodeMappingModel(path: folder.appendingPathComponent("M.xcmappingmodel").path, checksum: "c", sourceVersion: "Moods 1",
                                        destinationVersion: "Moods 2", modelName: "Moods", entityMappings: [
            XcodeEntityMapping(name: "ContinentToContinent", sourceEntity: "Continent", destinationEntity: "Continent"),
            XcodeEntityMapping(name: "CountryToCountry", sourceEntity: "Country", destinationEntity: "Country"),
            XcodeEntityMapping(name: "MoodToMood", sourceEntity: "Mood", destinationEntity: "Mood", attributeMappings: [
                XcodePropertyMapping(name: "continentCode", storedExpression: .keyPath(base: source, path: ["country", "continent", "code"])),
                XcodePropertyMapping(name: "label", storedExpression: .function(target: .keyPath(base: source, path: ["score"]), selector: "stringValue", arguments: [])),
                XcodePropertyMapping(name: "kind", storedExpression: .constant(.string("imported"))),
                XcodePropertyMapping(name: "note", storedExpression: .function(target: .variable("entityPolicy"), selector: "clean:", arguments: [.keyPath(base: source, path: ["note"])])),
            ], relationshipMappings: [
                XcodePropertyMapping(name: "continent", sourceKeyPath: "$source.country.continent", sourceMappingName: "ContinentToContinent"),
            ]),
        ])
        let stepFile = folder.appendingPathComponent("Moods 1 to Moods 2.step.yaml").path
        #expect(throws: StepInferenceError.self) { try StepInference.step(from: old, to: new, mapping: mapping, file: nil, stepFilePath: stepFile) }
        do {
            _ = try StepInference.step(from: old, to: new, mapping: mapping, file: nil, stepFilePath: stepFile)
        } catch let error as StepInferenceError {
            #expect(error.problems == ["entity mapping MoodToMood: Mood.note's value expression FUNCTION($entityPolicy, \"clean:\", $source.note) is not one storekeep reads (give Mood.note a rule in the step file)"])
        }
        try Data("from: Moods 1\nto: Moods 2\nentities:\n  - entity: Mood\n    attributes:\n      note: note\n".utf8).write(to: URL(fileURLWithPath: stepFile))
        let step = try StepInference.step(from: old, to: new, mapping: mapping, file: try StepFileReader.read(path: stepFile), stepFilePath: stepFile)
        let chain = StepChain(source: old, target: new, steps: [step])
        let europe = ImportRecord(entity: "Continent", globalID: GlobalID("e"), values: ["code": .integer(150)])
        let france = ImportRecord(entity: "Country", globalID: GlobalID("f"), values: ["name": .string("France")], toOne: ["continent": GlobalID("e")])
        let nowhere = ImportRecord(entity: "Country", globalID: GlobalID("n"), values: ["name": .string("Nowhere")])
        let happy = ImportRecord(entity: "Mood", globalID: GlobalID("m1"), values: ["score": .integer(7), "note": .string("ok")], toOne: ["country": GlobalID("f")])
        let lost = ImportRecord(entity: "Mood", globalID: GlobalID("m2"), values: ["score": .integer(1)], toOne: ["country": GlobalID("n")])
        let lookups = try chain.buildLookups { body in for record in [europe, france, nowhere, happy, lost] { try body(record) } }
        guard case .record(let first)? = chain.transform(happy, lookups: lookups), case .record(let second)? = chain.transform(lost, lookups: lookups) else {
            Issue.record("moods not carried over")
            return
        }
        #expect(first.values["continentCode"] == .integer(150))
        #expect(first.values["label"] == .string("7") && first.values["kind"] == .string("imported") && first.values["note"] == .string("ok"))
        #expect(first.toOne["continent"] == GlobalID("e") && first.toOne["country"] == GlobalID("f"))
        #expect((second.values["continentCode"] ?? .null) == .null && second.toOne["continent"] == nil, "a country without a continent leads nowhere")
    }

    @Test("a mapping model's FUNCTION($source.x, …) conversions other than stringValue: intValue, integerValue, longLongValue, doubleValue, floatValue, boolValue, description")
    func functionConversions() throws {
        let old = ManagedModel(name: "Stats", versionName: "Stats 1", entities: [
            EntityDescription(name: "Stat", attributes: [
                .init(name: "text", type: .string, isOptional: true), .init(name: "ratio", type: .double, isOptional: true),
                .init(name: "count", type: .integer32, isOptional: true), .init(name: "flag", type: .integer16, isOptional: true),
                .init(name: "share", type: .float, isOptional: true),
            ]),
        ])
        let new = ManagedModel(name: "Stats", versionName: "Stats 2", entities: [
            EntityDescription(name: "Stat", attributes: [
                .init(name: "fromText", type: .integer64, isOptional: true), .init(name: "fromRatio", type: .integer32, isOptional: true),
                .init(name: "wide", type: .integer64, isOptional: true), .init(name: "parsed", type: .double, isOptional: true),
                .init(name: "parsedFloat", type: .float, isOptional: true), .init(name: "on", type: .boolean, isOptional: true),
                .init(name: "label", type: .string, isOptional: true), .init(name: "rounded", type: .integer16, isOptional: true),
            ]),
        ])
        let source = MappingExpression.variable("source")
        func call(_ key: String, _ selector: String) -> MappingExpression { .function(target: .keyPath(base: source, path: [key]), selector: selector, arguments: []) }
        let mapping = XcodeMappingModel(path: folder.appendingPathComponent("S.xcmappingmodel").path, checksum: "c", sourceVersion: "Stats 1",
                                        destinationVersion: "Stats 2", modelName: "Stats", entityMappings: [
            XcodeEntityMapping(name: "StatToStat", sourceEntity: "Stat", destinationEntity: "Stat", attributeMappings: [
                XcodePropertyMapping(name: "fromText", storedExpression: call("text", "intValue")),
                XcodePropertyMapping(name: "fromRatio", storedExpression: call("ratio", "integerValue")),
                XcodePropertyMapping(name: "wide", storedExpression: call("count", "longLongValue")),
                XcodePropertyMapping(name: "parsed", storedExpression: call("text", "doubleValue")),
                XcodePropertyMapping(name: "parsedFloat", storedExpression: call("text", "floatValue")),
                XcodePropertyMapping(name: "on", storedExpression: call("flag", "boolValue")),
                XcodePropertyMapping(name: "label", storedExpression: call("count", "description")),
                XcodePropertyMapping(name: "rounded", storedExpression: call("share", "shortValue")),
            ]),
        ])
        let step = try StepInference.step(from: old, to: new, mapping: mapping, file: nil, stepFilePath: folder.appendingPathComponent("x.step.yaml").path)
        let stat = ImportRecord(entity: "Stat", globalID: GlobalID("s1"), values: [
            "text": .string(" 42 "), "ratio": .double(2.5), "count": .integer(70_000), "flag": .integer(2), "share": .double(-1.5),
        ])
        guard case .record(let converted)? = step.apply(to: stat) else {
            Issue.record("the stat is not carried over")
            return
        }
        #expect(converted.values == [
            "fromText": .integer(42), "fromRatio": .integer(3), "wide": .integer(70_000), "parsed": .double(42), "parsedFloat": .double(42),
            "on": .boolean(true), "label": .string("70000"), "rounded": .integer(-2),
        ])
        // Text that is no number rejects the record, naming the conversion; it is never emptied.
        let bad = ImportRecord(entity: "Stat", globalID: GlobalID("s2"), values: ["text": .string("many")])
        guard case .rejected(let reason)? = step.apply(to: bad) else {
            Issue.record("a text that is no number was carried")
            return
        }
        #expect(reason.contains("Stat.text → Stat.fromText (string-to-integer): the text 'many' is not a whole number"), "\(reason)")
        // A conversion the selector does not make between the two types is reported, naming the mapping.
        var wrong = mapping
        wrong.entityMappings[0].attributeMappings = [XcodePropertyMapping(name: "on", storedExpression: call("text", "boolValue"))]
        #expect(throws: StepInferenceError.self) {
            try StepInference.step(from: old, to: new, mapping: wrong, file: nil, stepFilePath: folder.appendingPathComponent("x.step.yaml").path)
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
    static var corpusIsPresent: Bool { FileManager.default.fileExists(atPath: corpus.path) }
}
