import Foundation
import XcodeModel
@testable import LegacyFormats
import ObjectModel
import Testing

/// Model files that are empty, hold no model, are not well-formed or are inconsistent: each is
/// refused with the file, the line where the parser can know it, and words (never a bare number).
@Suite("XcodeModelReader: broken model files")
struct XcodeModelBrokenInputTests {
    func readError(_ contents: String) throws -> (XcodeModelError, URL) {
        let fixture = try ModelFixture()
        let url = try fixture.write("Broken.xcdatamodel/contents", contents)
        do {
            _ = try XcodeModelReader().readModel(at: url.deletingLastPathComponent())
        } catch {
            return (error, url)
        }
        throw XcodeModelError(path: url.path, problem: "the model was read: \(contents.prefix(200))")
    }

    @Test("an empty contents file (0 bytes, or only white space) is refused, naming the file")
    func emptyFileIsRefused() throws {
        for contents in ["", "  \n\t\n"] {
            let (error, url) = try readError(contents)
            #expect(error.failureKind == .badInput)
            #expect(error.path == url.path)
            #expect(error.problem == "the model file is empty")
        }
    }

    @Test("a model without entities is refused")
    func modelWithoutEntitiesIsRefused() throws {
        for contents in ["<model></model>", "<model/>", ModelFixture.contents("")] {
            let (error, _) = try readError(contents)
            #expect(error.failureKind == .badInput)
            #expect(error.problem == "the model declares no entities", "\(contents)")
        }
    }

    @Test("malformed XML is described in words, with the line and column", arguments: [
        ("<model><entity name=\"A\"></model>", "an end tag does not match its start tag"),
        ("<model><entity name=\"A&#0;\"/></model>", "a character XML does not allow"),
        ("garbage", "the file does not start with an XML element"),
        ("<model><entity name=\"A\" x=\"1\" x=\"2\"/></model>", "an attribute is given twice"),
        ("<model><!-- x </model>", "a comment is not closed"),
        ("<model><entity name=\"A\"/>", "the document does not end where it should"),
        ("<model>&foo;</model>", "a broken or unknown entity reference"),
        ("<model><entity name=\"A></model>", "'<' inside an attribute value"),
        ("<model><entity name=A/></model>", "an attribute is not written as name=\"value\""),
    ])
    func malformedXMLInWords(contents: String, words: String) throws {
        let (error, url) = try readError(contents)
        #expect(error.failureKind == .badInput)
        #expect(error.path == url.path)
        #expect(error.line != nil && error.column != nil)
        #expect(error.problem.contains(words), "\(error.problem)")
        #expect(error.problem.range(of: #"XML error \d+"#, options: .regularExpression) == nil, "\(error.problem)")
    }

    @Test("every libxml2 error a parser reports for a damaged model has words")
    func everyReportedCodeHasWords() throws {
        // The codes malformed model files produce (libxml2's xmlParserErrors).
        for code in [4, 5, 9, 23, 26, 38, 39, 41, 42, 45, 65, 68, 73, 76, 77, 85, 86] {
            #expect(XMLErrorText.words(forCode: code) != nil, "libxml2 error \(code)")
        }
    }

    @Test("inconsistencies name the line of the declaration they are about", arguments: [
        ("""
        <entity name="A">
            <attribute name="x" optional="YES" attributeType="String"/>
            <attribute name="x" optional="YES" attributeType="String"/>
        </entity>
        """, 5, "entity A has two properties named x"),
        ("""
        <entity name="A"/>
        <entity name="B" parentEntity="Nope"/>
        """, 4, "entity B inherits from Nope"),
        ("""
        <entity name="A">
            <attribute name="x" optional="YES" attributeType="String"/>
            <relationship name="r" optional="YES" maxCount="1" destinationEntity="Nope"/>
        </entity>
        """, 5, "relationship A.r points to Nope"),
        ("""
        <entity name="A">
            <relationship name="r" optional="YES" maxCount="1" destinationEntity="B" inverseName="zz" inverseEntity="B"/>
        </entity>
        <entity name="B"/>
        """, 4, "names inverse zz"),
        ("""
        <entity name="A"/>
        <entity name="B"/>
        <entity name="A"/>
        """, 5, "entity A is declared twice"),
        ("""
        <entity name="A"/>
        <configuration name="Cloud">
            <memberEntity name="Gone"/>
        </configuration>
        """, 4, "configuration Cloud lists entity Gone"),
    ])
    func inconsistencyNamesTheLine(body: String, line: Int, words: String) throws {
        let (error, _) = try readError(ModelFixture.contents(body))
        #expect(error.failureKind == .badInput)
        #expect(error.problem.contains(words), "\(error.problem)")
        #expect(error.line == line, "\(error.description)")
        #expect(error.problem.contains("(line \(line))"), "\(error.problem)")
    }
}
