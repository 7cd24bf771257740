import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

@Suite("Version hash of models read from XML")
struct VersionHashStabilityTests {
    static let original = """
        <entity name="Speech" representedClassName="Speech" syncable="YES">
            <attribute name="duration" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="title" attributeType="String" indexed="YES"/>
            <relationship name="type" maxCount="1" deletionRule="Nullify" destinationEntity="SpeechType" inverseName="speeches" inverseEntity="SpeechType"/>
            <fetchIndex name="byTitle">
                <fetchIndexElement property="title" type="Binary" order="ascending"/>
            </fetchIndex>
        </entity>
        <entity name="SpeechType" representedClassName="SpeechType" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="speeches" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Speech" inverseName="type" inverseEntity="Speech"/>
        </entity>
        <elements>
            <element name="Speech" positionX="0" positionY="0" width="128" height="88"/>
            <element name="SpeechType" positionX="200" positionY="0" width="128" height="73"/>
        </elements>
    """

    /// Same schema: other diagram positions, class names, attribute order, defaults, `syncable`, indexes.
    static let cosmeticallyDifferent = """
        <entity name="SpeechType" representedClassName="MyApp.SpeechTypeMO">
            <relationship name="speeches" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Speech" inverseName="type" inverseEntity="Speech"/>
            <attribute name="name" attributeType="String" defaultValueString="Keynote"/>
        </entity>
        <entity name="Speech" representedClassName="MyApp.SpeechMO" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="duration" attributeType="Double" defaultValueString="60" usesScalarValueType="NO"/>
            <relationship name="type" maxCount="1" deletionRule="Nullify" destinationEntity="SpeechType" inverseName="speeches" inverseEntity="SpeechType"/>
            <compoundIndexes>
                <compoundIndex>
                    <index value="title"/>
                    <index value="duration"/>
                </compoundIndex>
            </compoundIndexes>
        </entity>
        <elements>
            <element name="Speech" positionX="-300" positionY="45" width="150" height="100"/>
            <element name="SpeechType" positionX="12" positionY="-7" width="128" height="73"/>
        </elements>
    """

    func hash(_ body: String) throws -> String {
        let fixture = try ModelFixture()
        let url = try fixture.write("H.xcdatamodel/contents", ModelFixture.contents(body))
        return try XcodeModelReader().readModel(at: url).current.versionHash
    }

    @Test func cosmeticChangesKeepTheHash() throws {
        #expect(try hash(Self.original) == hash(Self.cosmeticallyDifferent))
    }

    @Test func schemaChangesChangeTheHash() throws {
        let base = try hash(Self.original)
        let renamed = Self.original.replacingOccurrences(of: "name=\"title\"", with: "name=\"heading\"")
            .replacingOccurrences(of: "property=\"title\"", with: "property=\"heading\"")
        #expect(try hash(renamed) != base)
        let optional = Self.original.replacingOccurrences(
            of: "<attribute name=\"name\" attributeType", with: "<attribute name=\"name\" optional=\"YES\" attributeType")
        #expect(try hash(optional) != base)
        let transientAdded = Self.original.replacingOccurrences(
            of: "<attribute name=\"name\" attributeType=\"String\"/>",
            with: "<attribute name=\"name\" attributeType=\"String\"/>\n<attribute name=\"cache\" optional=\"YES\" transient=\"YES\" attributeType=\"String\"/>")
        #expect(try hash(transientAdded) == base)
    }
}
