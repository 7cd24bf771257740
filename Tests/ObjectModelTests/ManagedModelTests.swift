import ObjectModel
import Testing

@Suite("ManagedModel inheritance helpers, structural checks and bundles")
struct ManagedModelTests {
    let media = SampleModels.media

    @Test func inheritance() {
        #expect(media.attributes(of: "Clip").map(\.name) == ["code", "title", "length", "start"])
        #expect(media.attributes(of: "Nope").isEmpty)
        #expect(media.rootEntity(of: "Clip")?.name == "Media")
        #expect(media.rootEntity(of: "Media")?.name == "Media")
        #expect(media.descendants(of: "Media").map(\.name) == ["Video", "Clip", "Audio"])
        #expect(media.descendants(of: "Video").map(\.name) == ["Clip"])
        #expect(media.descendants(of: "Clip").isEmpty)
        #expect(media.rootEntities.map(\.name) == ["Media"])
        #expect(media.entity("Clip", isKindOf: "Video"))
        #expect(!media.entity("Audio", isKindOf: "Video"))
        #expect(media.attribute("code", of: "Clip")?.type == .string)
    }

    @Test func factsAreInheritedFromTheNearestAncestorWithFacts() {
        #expect(media.facts(of: "Video") == media.entity(named: "Media")?.facts)
        #expect(media.facts(of: "Audio").seedKey == ["code"])
        #expect(media.facts(of: "Clip") == StorekeepFacts(invalidRecordPolicy: .delete))
        #expect(SampleModels.speechTimer.facts(of: "Speech").isEmpty)
    }

    @Test func identifyingAttributes() {
        #expect(media.identifyingAttributes(of: "Video") == ["code", "title", "length"])
        #expect(media.identifyingAttributes(of: "Audio") == ["code"])
        // Clip has facts of its own without a seed key; inherited uniqueness constraints still identify it.
        #expect(media.identifyingAttributes(of: "Clip") == ["code", "title", "length"])
        #expect(media.facts(of: "Clip").seedKey.isEmpty)
        #expect(SampleModels.speechTimer.identifyingAttributes(of: "SpeechType") == ["name"])
    }

    @Test func usableModelHasNoProblems() {
        #expect(SampleModels.speechTimer.structuralProblems().isEmpty)
        #expect(media.structuralProblems().isEmpty)
    }

    @Test func structuralProblems() {
        func problems(_ entities: [EntityDescription], composites: [CompositeDescription] = []) -> [String] {
            ManagedModel(name: "M", versionName: "M", entities: entities, composites: composites).structuralProblems()
        }
        #expect(problems([.init(name: "A"), .init(name: "A")]) == ["entity A is declared twice"])
        #expect(problems([.init(name: "A", parentName: "Z")]) == ["entity A inherits from Z, which is not in the model"])
        #expect(problems([.init(name: "A", parentName: "B"), .init(name: "B", parentName: "A")]).contains("entity A is part of an inheritance cycle"))
        #expect(problems([
            .init(name: "A", attributes: [.init(name: "x", type: .string)]),
            .init(name: "B", parentName: "A", attributes: [.init(name: "x", type: .string)]),
        ]) == ["entity B has two properties named x"])
        #expect(problems([.init(name: "A", relationships: [.init(name: "r", destination: "Q")])])
            == ["relationship A.r points to Q, which is not in the model"])
        #expect(problems([
            .init(name: "A", relationships: [.init(name: "r", destination: "B", inverseName: "back")]), .init(name: "B"),
        ]) == ["relationship A.r names inverse back, which B does not have"])
        #expect(problems([.init(name: "A", attributes: [.init(name: "c", type: .composite, compositeName: "Place")])])
            == ["attribute A.c uses composite Place, which is not in the model"])
        #expect(problems(
            [.init(name: "A", attributes: [.init(name: "c", type: .composite, compositeName: "Place")])],
            composites: [.init(name: "Place", attributes: [])]).isEmpty)
    }

    @Test func bundleVersionLookup() throws {
        var second = SampleModels.speechTimer
        second.versionName = "SpeechTimer 10"
        var third = SampleModels.speechTimer
        third.versionName = "SpeechTimer 2"
        let bundle = ModelBundle(name: "SpeechTimer", versions: [second, SampleModels.speechTimer, third], currentVersionName: "SpeechTimer 2")
        #expect(bundle.versions.map(\.versionName) == ["SpeechTimer 1", "SpeechTimer 2", "SpeechTimer 10"])
        #expect(bundle.current.versionName == "SpeechTimer 2")
        #expect(try bundle.version(named: "SpeechTimer 10").versionName == "SpeechTimer 10")
        #expect(try bundle.version(named: "SpeechTimer 1.xcdatamodel").versionName == "SpeechTimer 1")
        do {
            _ = try bundle.version(named: "SpeechTimer 3.xcdatamodel")
            Issue.record("expected a lookup error")
        } catch {
            #expect(error.wanted == "SpeechTimer 3")
            #expect(error.available == ["SpeechTimer 1", "SpeechTimer 2", "SpeechTimer 10"])
            #expect(error.description.contains("no version named 'SpeechTimer 3'"))
        }
        #expect(ModelBundle.versionOrder("Moody 2", "Moody 10"))
        #expect(ModelBundle.versionOrder("Moody", "Moody 2"))
    }
}

@Suite("ModelBundle.current")
struct ModelBundleCurrentTests {
    @Test func fallsBackWithoutCrashing() {
        let unknownCurrent = ModelBundle(name: "S", versions: [SampleModels.speechTimer], currentVersionName: "S 9")
        #expect(unknownCurrent.current.versionName == "SpeechTimer 1")
        let empty = ModelBundle(name: "S", versions: [], currentVersionName: "S 1")
        #expect(empty.current.entities.isEmpty)
        #expect(empty.current.name == "S")
    }
}
