import Foundation
import ObjectModel
import Testing

/// Seed configurations (article 4): which entities live in a seed store, which attributes point
/// into one, the rules a model must follow, and the version hash.
@Suite("Seed configurations")
struct SeedConfigurationTests {
    /// Rating (user) → Postcode (seed, seed key `postcode`) → County (seed, seed key `name`), after article 4.
    static func postcodes(markConfiguration: Bool = true, markEntities: Bool = false) -> ManagedModel {
        let mark = markEntities ? [ManagedModel.seedConfigurationKey: "Postcodes"] : [:]
        let county = EntityDescription(
            name: "County", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "postcodes", destination: "Postcode", inverseName: "county", isToMany: true, isOptional: true)],
            userInfo: mark, facts: StorekeepFacts(seedKey: ["name"]))
        let postcode = EntityDescription(
            name: "Postcode", attributes: [.init(name: "postcode", type: .string), .init(name: "town", type: .string)],
            relationships: [.init(name: "county", destination: "County", inverseName: "postcodes", maxCount: 1)],
            userInfo: mark, facts: StorekeepFacts(seedKey: ["postcode"]))
        let rating = EntityDescription(name: "Rating", attributes: [
            .init(name: "postcode", type: .string, userInfo: [ManagedModel.seedReferenceKey: "Postcode"]),
            .init(name: "stars", type: .integer16),
        ])
        let configurations = [
            ConfigurationDescription(name: "Postcodes", entityNames: ["County", "Postcode"],
                                     userInfo: markConfiguration ? [ManagedModel.seedDataKey: "YES"] : [:]),
            ConfigurationDescription(name: "User", entityNames: ["Rating"]),
        ]
        return ManagedModel(name: "Postcodes", versionName: "Postcodes 1", entities: [county, postcode, rating], configurations: configurations)
    }

    @Test("a configuration is marked by its own userInfo or by its entities; references are read from attributes")
    func marking() {
        for model in [Self.postcodes(), Self.postcodes(markConfiguration: false, markEntities: true)] {
            #expect(model.seedConfigurations.map(\.name) == ["Postcodes"])
            #expect(model.seedConfiguration(of: "Postcode") == "Postcodes")
            #expect(model.seedConfiguration(of: "Rating") == nil)
            #expect(model.seedEntities(of: "Postcodes").map(\.name) == ["County", "Postcode"])
            #expect(model.seedReferences == [SeedReference(entity: "Rating", attribute: "postcode", target: "Postcode")])
            #expect(model.seedConfigurationProblems().isEmpty, "\(model.seedConfigurationProblems())")
        }
        let unmarked = Self.postcodes(markConfiguration: false)
        #expect(unmarked.seedConfigurations.isEmpty)
        #expect(unmarked.seedConfiguration(of: "Postcode") == nil)
    }

    @Test("a sub-entity belongs to its root's seed configuration")
    func subEntities() {
        var model = Self.postcodes()
        model.entities.append(EntityDescription(name: "LargePostcode", parentName: "Postcode", attributes: [.init(name: "size", type: .integer32)]))
        #expect(model.seedConfiguration(of: "LargePostcode") == "Postcodes")
        #expect(model.seedConfigurationProblems().isEmpty, "\(model.seedConfigurationProblems())")
    }

    @Test("every rule is refused with a sentence naming what is wrong", arguments: SeedRule.allCases)
    func refused(rule: SeedRule) {
        var model = Self.postcodes()
        let (change, words) = rule.breaking
        change(&model)
        let problems = model.seedConfigurationProblems()
        #expect(problems.contains { problem in words.allSatisfy(problem.contains) }, "\(rule): \(problems)")
    }

    @Test("the version hash changes only for a model with a seed configuration")
    func versionHash() {
        let unmarked = Self.postcodes(markConfiguration: false)
        var plain = unmarked
        plain.configurations = []
        #expect(unmarked.versionHash == plain.versionHash, "unmarked configurations do not enter the hash")
        let marked = Self.postcodes()
        #expect(marked.versionHash != unmarked.versionHash, "peers must agree on what is seed data")
        #expect(Self.postcodes(markConfiguration: false, markEntities: true).versionHash == marked.versionHash, "however it is marked")
        var otherReference = marked
        otherReference.entities[2].attributes[0].userInfo = [:]
        otherReference.entities[2].attributes.append(.init(name: "home", type: .string, userInfo: [ManagedModel.seedReferenceKey: "Postcode"]))
        #expect(otherReference.versionHash != marked.versionHash)
    }

    @Test("a model kept in a store before configurations had userInfo still decodes, and encodes as before")
    func storedModels() throws {
        let old = #"{"name":"Cloud","entityNames":["Speech"],"usedWithCloudKit":true}"#
        let decoded = try JSONDecoder().decode(ConfigurationDescription.self, from: Data(old.utf8))
        #expect(decoded == ConfigurationDescription(name: "Cloud", entityNames: ["Speech"], usedWithCloudKit: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == #"{"entityNames":["Speech"],"name":"Cloud","usedWithCloudKit":true}"#)
        let marked = try JSONDecoder().decode(ManagedModel.self, from: try JSONEncoder().encode(Self.postcodes()))
        #expect(marked.seedConfigurations.map(\.name) == ["Postcodes"])
    }
}

/// The rules of ``ManagedModel/seedConfigurationProblems()``, each with a change that breaks it and
/// words its message must hold.
enum SeedRule: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case badFlag, foreignMember, userAndSeed, splitFamily, noSeedKey, crossingRelationship, externalStorage, referenceNotString, referenceToUserEntity, referenceFromSeedEntity

    var testDescription: String { rawValue }

    var breaking: ((inout ManagedModel) -> Void, [String]) {
        switch self {
        case .badFlag:
            return ({ $0.configurations[0].userInfo[ManagedModel.seedDataKey] = "maybe" }, ["storekeep.seedData", "maybe", "YES or NO"])
        case .foreignMember:
            return ({ $0.entities[2].userInfo[ManagedModel.seedConfigurationKey] = "Postcodes" }, ["Rating", "does not list"])
        case .userAndSeed:
            return ({ $0.configurations[1].entityNames.append("County") }, ["County", "not seed data"])
        case .splitFamily:
            return ({ model in
                model.entities.append(EntityDescription(name: "Base", attributes: [.init(name: "code", type: .string)], facts: StorekeepFacts(seedKey: ["code"])))
                model.entities.append(EntityDescription(name: "Derived", parentName: "Base"))
                model.configurations[0].entityNames.append("Derived")
            }, ["Base", "split"])
        case .noSeedKey:
            return ({ $0.entities[0].facts = StorekeepFacts() }, ["County", "no storekeep.seedKey"])
        case .crossingRelationship:
            return ({ $0.entities[2].relationships.append(.init(name: "home", destination: "Postcode", maxCount: 1)) }, ["Rating.home", "cannot cross stores"])
        case .externalStorage:
            return ({ $0.entities[1].attributes.append(.init(name: "map", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true)) },
                    ["Postcode.map", "external storage"])
        case .referenceNotString:
            return ({ $0.entities[2].attributes[1].userInfo[ManagedModel.seedReferenceKey] = "Postcode" }, ["Rating.stars", "not a stored String"])
        case .referenceToUserEntity:
            return ({ $0.entities[2].attributes[0].userInfo[ManagedModel.seedReferenceKey] = "Rating" }, ["Rating.postcode", "not an entity of a seed configuration"])
        case .referenceFromSeedEntity:
            return ({ $0.entities[1].attributes[1].userInfo[ManagedModel.seedReferenceKey] = "County" }, ["Postcode.town", "seed data itself"])
        }
    }
}
