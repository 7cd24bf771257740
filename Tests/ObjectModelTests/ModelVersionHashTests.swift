import ObjectModel
import Testing

@Suite("ModelVersionHash")
struct ModelVersionHashTests {
    let base = SampleModels.speechTimer

    func changed(_ change: (inout ManagedModel) -> Void) -> String {
        var model = base
        change(&model)
        return model.versionHash
    }

    func index(_ name: String, in model: ManagedModel) -> Int {
        model.entities.firstIndex { $0.name == name } ?? -1
    }

    @Test func isSixtyFourLowercaseHexDigits() {
        let hash = base.versionHash
        #expect(hash.count == 64)
        #expect(hash.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(ModelVersionHash(base).entities.keys.sorted() == ["Settings", "Speech", "SpeechType"])
    }

    @Test func ignoresWhatDoesNotMatterForStorage() {
        let hash = base.versionHash
        #expect(changed { $0.entities.reverse() } == hash)
        #expect(changed { $0.entities[1].attributes.reverse() } == hash)
        #expect(changed { $0.entities[1].className = "MyApp.Speech" } == hash)
        #expect(changed { $0.entities[1].attributes[1].defaultValueString = "12" } == hash)
        #expect(changed { $0.entities[1].attributes[0].isIndexed = true } == hash)
        #expect(changed { $0.entities[1].fetchIndexes = [.init(name: "i", elements: [.init(property: "title")])] } == hash)
        #expect(changed { $0.entities[1].attributes[0].elementID = "heading" } == hash)
        #expect(changed { $0.entities[1].attributes[0].regularExpression = "^a" } == hash)
        #expect(changed { $0.entities[1].userInfo["other"] = "x" } == hash)
        #expect(changed { $0.entities[1].relationships[0].deletionRule = .cascade } == hash)
        #expect(changed { $0.configurations = [.init(name: "Cloud", entityNames: ["Speech"], usedWithCloudKit: true)] } == hash)
        #expect(changed { $0.versionName = "Other" } == hash)
        #expect(changed {
            $0.entities[1].attributes.append(.init(name: "cache", type: .string, isOptional: true, isTransient: true))
        } == hash)
    }

    @Test func changesWithTheSchema() {
        let hash = base.versionHash
        let variants = [
            changed { $0.entities[1].attributes[0].name = "heading" },
            changed { $0.entities[1].attributes[0].type = .uri },
            changed { $0.entities[1].attributes[0].isOptional = true },
            changed { $0.entities[1].relationships[0].isToMany = true },
            changed { $0.entities.append(EntityDescription(name: "Venue")) },
            changed { $0.entities[1].versionHashModifier = "2" },
            changed { $0.entities[1].attributes[0].versionHashModifier = "2" },
            changed { $0.entities[1].uniquenessConstraints = [["title"]] },
            changed { $0.entities[1].facts.isSingleton = true },
            changed { $0.entities[1].facts.seedKey = ["title"] },
            changed { $0.entities[1].facts.invalidRecordPolicy = .delete },
            changed { $0.entities[1].parentName = "SpeechType" },
            changed { $0.entities[1].isAbstract = true },
            changed { $0.composites = [.init(name: "Place", attributes: [.init(name: "city", type: .string)])] },
        ]
        for (number, variant) in variants.enumerated() {
            #expect(variant != hash, "variant \(number)")
        }
        #expect(Set(variants).count == variants.count)
    }

    @Test func entityHashChangesOnlyForTheChangedEntity() {
        let before = ModelVersionHash(base)
        var model = base
        model.entities[index("Settings", in: model)].attributes[0].isOptional = true
        let after = ModelVersionHash(model)
        #expect(after.entities["Settings"] != before.entities["Settings"])
        #expect(after.entities["Speech"] == before.entities["Speech"])
        #expect(after.model != before.model)
    }

    @Test func canonicalTextListsPersistentPropertiesSorted() {
        let text = ModelVersionHash.canonicalText(of: SampleModels.speech)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "entity Speech")
        #expect(lines.contains("attribute duration type=Double optional=0 composite=- modifier=-"))
        let attributeLines = lines.filter { $0.hasPrefix("attribute ") }
        #expect(attributeLines.map { $0.split(separator: " ")[1] } == ["duration", "recording", "title"])
        #expect(lines.contains("relationship type destination=SpeechType inverse=speeches toMany=0 ordered=0 optional=0 min=0 max=1 modifier=-"))
        #expect(lines.last == "invalidRecordPolicy keep")
    }
}
