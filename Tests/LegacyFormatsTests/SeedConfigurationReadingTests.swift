import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

/// Seed configurations as read from Xcode model files: the Postcodes example in `Migrations/`, a
/// configuration's hand-written `<userInfo>`, and models whose hashes must not move.
@Suite("Seed configurations in model files")
struct SeedConfigurationReadingTests {
    static let postcodes = Corpus.packageRoot.appendingPathComponent("Migrations/Postcodes/Postcodes.xcdatamodeld")

    @Test("the Postcodes example: a seed configuration, its entities and the user's reference into it")
    func postcodesExample() throws {
        let model = try XcodeModelReader().readModel(at: Self.postcodes).current
        #expect(model.configurations.first { $0.name == "Postcodes" }?.userInfo == [ManagedModel.seedDataKey: "YES"])
        #expect(model.seedConfigurations.map(\.name) == ["Postcodes"])
        #expect(model.seedEntities(of: "Postcodes").map(\.name).sorted() == ["County", "Postcode"])
        #expect(model.seedConfiguration(of: "Rating") == nil)
        #expect(model.seedReferences == [SeedReference(entity: "Rating", attribute: "postcode", target: "Postcode")])
    }

    @Test("a configuration's userInfo is read; a bad marking value names the file and the configuration")
    func configurationUserInfo() throws {
        let fixture = try ModelFixture()
        let body = { (flag: String) in """
            <entity name="Place" representedClassName="Place" syncable="YES">
                <attribute name="code" attributeType="String"/>
                <userInfo><entry key="storekeep.seedKey" value="code"/></userInfo>
            </entity>
            <configuration name="Places">
                <memberEntity name="Place"/>
                <userInfo><entry key="storekeep.seedData" value="\(flag)"/><entry key="other" value="kept"/></userInfo>
            </configuration>
            """ }
        let good = try fixture.write("Good.xcdatamodel/contents", ModelFixture.contents(body("YES")))
        let model = try XcodeModelReader().readModel(at: good.deletingLastPathComponent()).current
        #expect(model.configurations.first?.userInfo == ["storekeep.seedData": "YES", "other": "kept"])
        #expect(model.seedConfiguration(of: "Place") == "Places")

        let bad = try fixture.write("Bad.xcdatamodel/contents", ModelFixture.contents(body("sometimes")))
        #expect {
            _ = try XcodeModelReader().readModel(at: bad.deletingLastPathComponent())
        } throws: { error in
            let text = "\(error)"
            return text.contains("Bad.xcdatamodel/contents") && text.contains("configuration Places") && text.contains("sometimes")
        }
    }

    @Test("models without a seed configuration keep their hash (the Speech Timer model's is pinned)")
    func hashesUnchanged() throws {
        let bundle = try XcodeModelReader().readModel(at: SpeechTimerModelTests.url)
        #expect(try bundle.version(named: "SpeechTimer 2").versionHash == "1a89ee02c7d34e7ed9d8a5b2cf7b6e6b5513d257b1ea60380404d96d474e382b")
        #expect(bundle.current.seedConfigurations.isEmpty)
    }
}
