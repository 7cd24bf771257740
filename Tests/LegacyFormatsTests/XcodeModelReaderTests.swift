import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

@Suite("XcodeModelReader on hand-written fixtures")
struct XcodeModelReaderTests {
    let reader = XcodeModelReader()

    func readError(_ url: URL) -> XcodeModelError? {
        do {
            _ = try reader.readModel(at: url)
            return nil
        } catch {
            return error
        }
    }

    @Test func malformedXMLNamesTheLine() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String">
            </entity>
        """
        let url = try fixture.write("Broken.xcdatamodel/contents", ModelFixture.contents(body))
        let error = try #require(readError(url))
        #expect(error.failureKind == .badInput)
        #expect(error.line == 5)
        #expect(error.path == url.path)
        #expect(error.description.hasPrefix("\(url.path):5:"))
        #expect(error.description.contains("malformed XML"))
        #expect(error.hint != nil)
    }

    @Test func unknownRootElementIsBadInput() throws {
        let fixture = try ModelFixture()
        let url = try fixture.write("Other.xcdatamodel/contents", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")
        let error = try #require(readError(url))
        #expect(error.failureKind == .badInput)
        #expect(error.problem.contains("unknown root element <plist>"))
        #expect(error.line == 2)
    }

    @Test func missingPathIsMissingInput() throws {
        let fixture = try ModelFixture()
        let error = try #require(readError(fixture.root.appendingPathComponent("Nowhere.xcdatamodeld")))
        #expect(error.failureKind == .missingInput)
        #expect(error.path.hasSuffix("Nowhere.xcdatamodeld"))
    }

    @Test func versionFolderWithoutContentsIsMissingInput() throws {
        let fixture = try ModelFixture()
        try FileManager.default.createDirectory(
            at: fixture.root.appendingPathComponent("M.xcdatamodeld/M.xcdatamodel"), withIntermediateDirectories: true)
        let error = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(error.failureKind == .missingInput)
        #expect(error.path.hasSuffix("M.xcdatamodel/contents"))
    }

    @Test func currentVersionThatDoesNotExistIsAnError() throws {
        let fixture = try ModelFixture()
        try fixture.write("M.xcdatamodeld/M.xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        try fixture.write("M.xcdatamodeld/.xccurrentversion", ModelFixture.currentVersion("M 7.xcdatamodel"))
        let error = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(error.failureKind == .badInput)
        #expect(error.path.hasSuffix(".xccurrentversion"))
        #expect(error.problem.contains("'M 7'"))
        #expect(error.problem.contains("it has: M"))
    }

    @Test func brokenCurrentVersionFileIsAnError() throws {
        let fixture = try ModelFixture()
        try fixture.write("M.xcdatamodeld/M.xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        try fixture.write("M.xcdatamodeld/.xccurrentversion", "<plist><dict><key>x</key>")
        let error = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(error.failureKind == .badInput)
        #expect(error.path.hasSuffix(".xccurrentversion"))
        #expect(error.line == 1, "\(error)")
        #expect(error.problem.hasPrefix("not a property list: malformed XML"), "\(error)")

        // The place and the reason, in words: the line of a bad value, the byte of a damaged binary file.
        try fixture.write("M.xcdatamodeld/.xccurrentversion", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>_XCCurrentVersionName</key>\n<integer>zz</integer>\n</dict>\n</plist>\n")
        let value = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(value.description.contains(".xccurrentversion:5: _XCCurrentVersionName is an <integer>, not a <string>"), "\(value)")
        try fixture.write("M.xcdatamodeld/.xccurrentversion", "bplist00\u{1}\u{2}")
        let binary = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(binary.failureKind == .badInput && binary.path.hasSuffix(".xccurrentversion"), "\(binary)")
        #expect(binary.problem.hasPrefix("not a property list: a damaged binary property list"), "\(binary)")
        try fixture.write("M.xcdatamodeld/.xccurrentversion", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array/></plist>\n")
        let notDictionary = try #require(readError(fixture.root.appendingPathComponent("M.xcdatamodeld")))
        #expect(notDictionary.problem == "the property list is not a dictionary", "\(notDictionary)")
    }

    @Test func badSingletonValueNamesTheEntityAndItsLine() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Prefs" syncable="YES">
                <attribute name="theme" optional="YES" attributeType="String"/>
                <userInfo>
                    <entry key="storekeep.singleton" value="sometimes"/>
                </userInfo>
            </entity>
        """
        let url = try fixture.write("F.xcdatamodel/contents", ModelFixture.contents(body))
        let error = try #require(readError(url))
        #expect(error.failureKind == .badInput)
        #expect(error.line == 6)
        #expect(error.problem.contains("entity Prefs"))
        #expect(error.problem.contains("storekeep.singleton"))
    }

    @Test func seedKeyNamingAnInheritedAttributeIsAccepted() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Base" isAbstract="YES" syncable="YES">
                <attribute name="code" attributeType="String"/>
            </entity>
            <entity name="Child" parentEntity="Base" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <userInfo>
                    <entry key="storekeep.seedKey" value="code, label"/>
                </userInfo>
            </entity>
        """
        let url = try fixture.write("I.xcdatamodel/contents", ModelFixture.contents(body))
        let model = try reader.readModel(at: url).current
        #expect(model.entity(named: "Child")?.facts.seedKey == ["code", "label"])
        #expect(model.entity(named: "Base")?.isAbstract == true)
    }

    @Test func structuralProblemIsBadInput() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Note" syncable="YES">
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
            </entity>
        """
        let url = try fixture.write("S.xcdatamodel/contents", ModelFixture.contents(body))
        let error = try #require(readError(url))
        #expect(error.failureKind == .badInput)
        #expect(error.problem.contains("Note.folder points to Folder"))
    }

    @Test func unknownAttributeTypeIsBadInput() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Note" syncable="YES">
                <attribute name="text" attributeType="Quaternion"/>
            </entity>
        """
        let error = try #require(readError(try fixture.write("T.xcdatamodel/contents", ModelFixture.contents(body))))
        #expect(error.failureKind == .badInput)
        #expect(error.problem.contains("Quaternion"))
        #expect(error.line == 4)
    }

    @Test func lenientDefaultsAndFlags() throws {
        let fixture = try ModelFixture()
        let body = """
            <entity name="Values" syncable="YES">
                <attribute name="a" attributeType="Integer 16" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="b" attributeType="Integer 32" defaultValueString="NO"/>
                <attribute name="c" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="d" attributeType="Date" defaultValueString="60"/>
                <attribute name="e" attributeType="Date" defaultValueString="2001-01-01T00:01:00Z"/>
                <attribute name="f" attributeType="Integer 16" defaultValueString="a lot"/>
                <attribute name="g" attributeType="Integer 16" defaultValueString="70000"/>
                <attribute name="h" attributeType="Double" defaultValueString="2.5"/>
                <attribute name="i" attributeType="Decimal" defaultValueString="0.0"/>
                <attribute name="j" optional="yes" transient="true" attributeType="String" defaultValueString="hi"/>
                <attribute name="k" optional="NO" attributeType="Object ID"/>
                <attribute name="l" transient="YES"/>
                <attribute name="m" attributeType="UUID" defaultValueString="6B29FC40-CA47-1067-B31D-00DD010662DA"/>
                <futureElement kind="ignored"/>
            </entity>
        """
        let url = try fixture.write("D.xcdatamodel/contents", ModelFixture.contents(body))
        let entity = try #require(reader.readModel(at: url).current.entity(named: "Values"))
        func attribute(_ name: String) -> AttributeDescription? { entity.attribute(named: name) }
        #expect(attribute("a")?.defaultValue == .integer(0))
        #expect(attribute("a")?.usesScalarValueType == true)
        #expect(attribute("b")?.defaultValue == .integer(0))
        #expect(attribute("b")?.usesScalarValueType == nil)
        #expect(attribute("c")?.defaultValue == .boolean(true))
        #expect(attribute("d")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 60)))
        #expect(attribute("e")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 60)))
        #expect(attribute("f")?.defaultValue == nil)
        #expect(attribute("f")?.defaultValueString == "a lot")
        #expect(attribute("g")?.defaultValue == nil)
        #expect(attribute("h")?.defaultValue == .double(2.5))
        #expect(attribute("i")?.defaultValue == .decimal("0"))
        #expect(attribute("j")?.isOptional == true && attribute("j")?.isTransient == true)
        #expect(attribute("j")?.defaultValue == .string("hi"))
        #expect(attribute("k")?.type == .objectID && attribute("k")?.isOptional == false)
        #expect(attribute("l")?.type == .undefined && attribute("l")?.isTransient == true)
        #expect(attribute("m")?.defaultValue == .uuid(UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA")!))
        #expect(attribute("a")?.isOptional == false)
    }

    @Test func bareVersionFolderAndContentsFile() throws {
        let fixture = try ModelFixture()
        let contents = try fixture.write("Notes 3.xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        for url in [contents.deletingLastPathComponent(), contents] {
            let bundle = try reader.readModel(at: url)
            #expect(bundle.name == "Notes 3")
            #expect(bundle.versions.map(\.versionName) == ["Notes 3"])
            #expect(bundle.currentVersionName == "Notes 3")
            #expect(bundle.current.entity(named: "Note")?.attribute(named: "text")?.isOptional == true)
        }
    }

    @Test func versionFolderInsideABundleTakesTheBundleName() throws {
        let fixture = try ModelFixture()
        let contents = try fixture.write("Notes.xcdatamodeld/Notes 2.xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        let bundle = try reader.readModel(at: contents)
        #expect(bundle.name == "Notes")
        #expect(bundle.current.versionName == "Notes 2")
    }

    @Test func bundleWithoutCurrentVersionFile() throws {
        let fixture = try ModelFixture()
        try fixture.write("Solo.xcdatamodeld/Solo.xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        let single = try reader.readModel(at: fixture.root.appendingPathComponent("Solo.xcdatamodeld"))
        #expect(single.name == "Solo")
        #expect(single.versions.count == 1)
        #expect(single.currentVersionName == "Solo")

        for version in ["Multi", "Multi 2", "Multi 10"] {
            try fixture.write("Multi.xcdatamodeld/\(version).xcdatamodel/contents", ModelFixture.contents(ModelFixture.simpleEntity))
        }
        let multi = try reader.readModel(at: fixture.root.appendingPathComponent("Multi.xcdatamodeld"))
        #expect(multi.versions.map(\.versionName) == ["Multi", "Multi 2", "Multi 10"])
        #expect(multi.currentVersionName == "Multi 10")
    }

    @Test func otherFolderIsNotAModel() throws {
        let fixture = try ModelFixture()
        let error = try #require(readError(fixture.root))
        #expect(error.failureKind == .badInput)
        #expect(error.problem.contains("not an Xcode data model"))
    }
}
