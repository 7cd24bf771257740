import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

@Suite("The SpeechTimer example model in Migrations/")
struct SpeechTimerModelTests {
    static let url = Corpus.packageRoot.appendingPathComponent("Migrations/SpeechTimer/SpeechTimer.xcdatamodeld")

    @Test func loadsBothVersions() throws {
        let bundle = try XcodeModelReader().readModel(at: Self.url)
        #expect(bundle.name == "SpeechTimer")
        #expect(bundle.versions.map(\.versionName) == ["SpeechTimer 1", "SpeechTimer 2"])
        #expect(bundle.currentVersionName == "SpeechTimer 2")
        let first = try bundle.version(named: "SpeechTimer 1")
        let second = try bundle.version(named: "SpeechTimer 2.xcdatamodel")
        #expect(first.versionHash != second.versionHash)
        #expect(first.versionIdentifier == "1" && second.versionIdentifier == "2")
    }

    @Test func factsAsIntended() throws {
        let model = try XcodeModelReader().readModel(at: Self.url).current
        #expect(model.facts(of: "SpeechType") == StorekeepFacts(seedKey: ["name"], isSingleton: false, invalidRecordPolicy: .keep))
        #expect(model.facts(of: "Settings") == StorekeepFacts(isSingleton: true, invalidRecordPolicy: .keep))
        #expect(model.facts(of: "Speech").invalidRecordPolicy == .keep)
        #expect(model.identifyingAttributes(of: "SpeechType") == ["name"])
        #expect(model.attribute("theme", of: "Settings")?.defaultValue == .string("classic"))
        #expect(model.attribute("vibrate", of: "Settings")?.defaultValue == .boolean(false))
        #expect(model.attribute("lastExport", of: "Settings")?.isOptional == true)
    }

    @Test func speechInVersionTwo() throws {
        let bundle = try XcodeModelReader().readModel(at: Self.url)
        let speech = try #require(bundle.current.entity(named: "Speech"))
        #expect(speech.attribute(named: "speakerName")?.elementID == "speaker")
        #expect(speech.attribute(named: "speaker") == nil)
        #expect(speech.attribute(named: "rating")?.type == .integer16)
        #expect(speech.attribute(named: "rating")?.isOptional == true)
        #expect(speech.attribute(named: "recording")?.allowsExternalBinaryDataStorage == true)
        #expect(speech.attribute(named: "recording")?.type == .binary)
        let type = try #require(speech.relationship(named: "type"))
        #expect(type.destination == "SpeechType" && type.inverseName == "speeches")
        #expect(!type.isOptional && !type.isToMany && type.maxCount == 1)
        let speeches = try #require(bundle.current.relationship("speeches", of: "SpeechType"))
        #expect(speeches.isToMany && speeches.deletionRule == .deny)
        let old = try bundle.version(named: "SpeechTimer 1")
        #expect(old.attribute("speaker", of: "Speech")?.type == .string)
        #expect(old.attribute("rating", of: "Speech") == nil)
    }
}
