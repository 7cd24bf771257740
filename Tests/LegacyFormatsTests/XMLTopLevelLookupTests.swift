import Foundation
import Testing

@testable import LegacyFormats

/// Lookups in an XML property list after a read through a top-level array start where the read
/// found each key (plistlib writes `version` after `speeches`), and give the same values, counts
/// and error lines as a read from the top; a migration's selected keys are read as a whole
/// element would give them.
@Suite struct XMLTopLevelLookupTests {
    private func speechesFile(_ fixture: PropertyListFixture, count: Int, version: String = "<integer>1</integer>") throws -> URL {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<plist version=\"1.0\">", "<dict>", "\t<key>speeches</key>", "\t<array>"]
        for index in 0..<count {
            lines += ["\t\t<dict>", "\t\t\t<key>title</key>", "\t\t\t<string>talk \(index)</string>",
                      "\t\t\t<key>extra</key>", "\t\t\t<array><integer>\(index)</integer></array>", "\t\t</dict>"]
        }
        lines += ["\t</array>", "\t<key>version</key>", "\t\(version)", "</dict>", "</plist>"]
        return try fixture.write("speeches.plist", lines.joined(separator: "\n") + "\n")
    }

    @Test("after counting an array, a key written after it is found, and an absent key is absent")
    func keysAfterTheArray() throws {
        let fixture = try PropertyListFixture()
        let document = try PropertyListDocument.open(at: try speechesFile(fixture, count: 50))
        #expect(try document.elementCount(atKeyPath: "speeches") == 50)
        #expect(try document.value(atKeyPath: "version") == .integer(1))
        #expect(try document.value(atKeyPath: "missing") == nil)
        #expect(try document.elementCount(atKeyPath: "speeches") == 50)
        // A key looked up first gives the array's count to the count that follows.
        let other = try PropertyListDocument.open(at: fixture.url("speeches.plist"))
        #expect(try other.value(atKeyPath: "version") == .integer(1))
        #expect(try other.elementCount(atKeyPath: "speeches") == 50)
    }

    @Test("a value found through the index reports its own line")
    func errorLineThroughTheIndex() throws {
        let fixture = try PropertyListFixture()
        let url = try speechesFile(fixture, count: 3, version: "<integer>x</integer>")
        let document = try PropertyListDocument.open(at: url)
        #expect(try document.elementCount(atKeyPath: "speeches") == 3)
        let error = PropertyListFixture.error { _ = try document.value(atKeyPath: "version") }
        #expect(error?.line == 3 * 6 + 8, "\(String(describing: error))")
    }

    @Test("selected keys read the same values as the whole element, the last of a repeated key winning")
    func selectedKeysMatchWholeElements() throws {
        let fixture = try PropertyListFixture()
        let text = """
            <plist><dict><key>items</key><array>
            <dict><key>a</key><string>one</string><key>skip</key><dict><key>x</key><real>1.5</real></dict><key>a</key><string>two</string></dict>
            <string>not a dictionary</string>
            <dict><key>b</key><date>2020-02-29T12:00:00Z</date></dict>
            </array></dict></plist>
            """
        let document = try PropertyListDocument.open(at: try fixture.write("items.plist", text))
        let selection = PropertyListKeySelection(keys: ["b", "a"])
        var whole: [[PropertyListValue?]?] = []
        try document.forEachElement(atKeyPath: "items") { _, element in
            if case .dictionary(let entries) = element { whole.append(selection.keys.map { entries[$0] }) } else { whole.append(nil) }
            return true
        }
        var selected: [[PropertyListValue?]?] = []
        var types: [String] = []
        try document.forEachElement(atKeyPath: "items", selecting: selection) { _, values, type in
            selected.append(values)
            types.append(type)
            return true
        }
        #expect(selected.count == 3)
        #expect(selected[0] == [nil, .string("two")])
        #expect(types == ["dictionary", "string", "dictionary"])
        #expect(selected.map { $0.map { $0.map { $0 } } } == whole.map { $0.map { $0.map { $0 } } })
    }
}
