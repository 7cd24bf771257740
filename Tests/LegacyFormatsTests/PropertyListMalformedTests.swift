import Foundation
import LegacyFormats
import ObjectModel
import Testing

/// Broken files must give a clear ``PropertyListError``, never a crash or a hang.
@Suite("PropertyListDocument on malformed files")
struct PropertyListMalformedTests {
    let fixture: PropertyListFixture

    init() throws {
        fixture = try PropertyListFixture()
    }

    /// The first error from opening `bytes` and running every operation on them.
    func failure(_ bytes: [UInt8]) throws -> PropertyListError? {
        let url = try fixture.write("broken-\(UUID().uuidString).plist", bytes)
        return PropertyListFixture.error {
            let document = try PropertyListDocument.open(at: url)
            try document.validate()
            _ = try document.shape()
            _ = try document.value(atKeyPath: "")
        }
    }

    @Test func truncatedBinary() throws {
        try fixture.python("import plistlib\nopen('good.bplist', 'wb').write(plistlib.dumps({'a': [1, 2, 'three'], 'b': b'x' * 100}, fmt=plistlib.FMT_BINARY))")
        let good = Array(try Data(contentsOf: fixture.url("good.bplist")))
        for length in [10, 41, good.count / 2, good.count - 1] {
            let error = try #require(try failure(Array(good.prefix(length))), "length \(length)")
            #expect(error.failureKind == .badInput)
            #expect(error.problem.hasPrefix("malformed binary plist:"))
        }
    }

    @Test func offsetTablePointingOutsideTheFile() throws {
        var plist = HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x09]])
        plist.offsetOverrides[1] = 250
        let error = try #require(try failure(plist.bytes))
        #expect(error.problem.contains("outside the objects"))
        #expect(error.offset != nil)
        #expect(error.description.contains(": byte "))
    }

    @Test func referenceCycle() throws {
        let cycle = HandMadeBinaryPlist(objects: [[0xA1, 0x00]]).bytes
        let error = try #require(try failure(cycle))
        #expect(error.problem.contains("contains itself"))
        let url = try fixture.write("cycle.bplist", cycle)
        let document = try PropertyListDocument.open(at: url)
        let fromForEach = PropertyListFixture.error { try document.forEachElement(atKeyPath: "") { _, _ in true } }
        #expect(fromForEach?.problem.contains("contains itself") == true)
    }

    @Test func absurdCounts() throws {
        var plist = HandMadeBinaryPlist(objects: [[0xA1, 0x00]])
        plist.objectCountOverride = 1 << 40
        #expect(try failure(plist.bytes)?.problem.contains("objects, which the file cannot hold") == true)
        let hugeArray = HandMadeBinaryPlist(objects: [[0xAF, 0x13] + HandMadeBinaryPlist.bigEndian(1 << 50) + [0x01], [0x09]]).bytes
        #expect(try failure(hugeArray)?.problem.contains("more than the file holds") == true)
        let badKey = HandMadeBinaryPlist(objects: [[0xD1, 0x01, 0x01], [0x10, 0x05]]).bytes
        #expect(try failure(badKey)?.problem.contains("is a integer, not a string") == true)
        let unknownMarker = HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x70]]).bytes
        #expect(try failure(unknownMarker)?.problem.contains("unknown marker 0x70") == true)
    }

    @Test func sharedObjectsThatMultiplyAreCutShort() throws {
        var objects: [[UInt8]] = []
        for level in 0..<40 { objects.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
        objects.append([0x09])
        let error = try #require(try failure(HandMadeBinaryPlist(objects: objects).bytes))
        #expect(error.problem.contains("shared in a way that multiplies them"))
    }

    @Test func malformedXMLNamesTheLine() throws {
        let cases: [(String, Int, String)] = [
            ("<plist><dict>\n<key>a</key>\n<string>x</dict>\n</plist>", 3, "expected </string>, found </dict>"),
            ("<plist><array>\n<strin>x</strin>\n</array></plist>", 2, "unknown element <strin>"),
            ("<plist><dict>\n<string>x</string>\n</dict></plist>", 2, "expected <key> or </dict>, found <string>"),
            ("<plist><array>\n<integer>12a</integer></array></plist>", 2, "not a whole number"),
            ("<plist><array>\n\n<string>a & b</string></array></plist>", 3, "'&' does not start an entity"),
            ("<plist><array><date>yesterday</date></array></plist>", 1, "not a date"),
            ("<plist><array><string>never closed", 1, "the file ends inside <string>"),
            ("<plist><array/></plist>\n<plist/>", 2, "after the end of the property list"),
            ("<plist><array>\n<data>!!!</data></array></plist>", 2, "valid base64"),
        ]
        for (text, line, problem) in cases {
            let error = try #require(try failure(Array(text.utf8)), "\(text)")
            #expect(error.failureKind == .badInput)
            #expect(error.line == line, "\(error.description)")
            #expect(error.problem.contains(problem), "\(error.description)")
        }
    }

    @Test func entitiesCommentsAndCDATA() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version="1.0"><dict>
              <key>text</key><string>&amp;&lt;&gt;&quot;&apos;&#65;&#x1F600;<!-- gone --><![CDATA[<raw & kept>]]>!</string>
              <key/><string/>
              <key>r</key><real>-inf</real>
              <key>i</key><integer> -7 </integer>
              <key>d</key><date>2001-01-01T00:00:01Z</date>
              <key>b</key><true></true>
            </dict></plist>
            """
        let url = try fixture.write("entities.plist", text)
        let document = try PropertyListDocument.open(at: url)
        #expect(try document.value(atKeyPath: "") == .dictionary([
            "text": .string("&<>\"'A😀<raw & kept>!"), "": .string(""), "r": .real(-.infinity),
            "i": .integer(-7), "d": .date(Date(timeIntervalSinceReferenceDate: 1)), "b": .boolean(true),
        ]))
        try document.validate()
    }

    @Test func filesThatAreNotPropertyLists() throws {
        let cases: [([UInt8], String)] = [
            ([], "the file is empty"),
            (Array("{\"a\": 1}".utf8), "JSON"),
            (Array("SQLite format 3\u{0}".utf8), "SQLite database"),
            (Array("bplist15xxxxxxxx".utf8), "version 'bplist15'"),
            (Array("<html><body/></html>".utf8), "first element is not <plist>"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "starts with bytes 89 50 4e 47"),
            (Array("hello world".utf8), "text that is not a property list"),
        ]
        for (bytes, problem) in cases {
            let url = try fixture.write("other-\(UUID().uuidString)", bytes)
            let error = try #require(PropertyListFixture.error { _ = try PropertyListDocument.open(at: url) })
            #expect(error.failureKind == .badInput)
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
        let missing = PropertyListFixture.error { _ = try PropertyListDocument.open(at: fixture.url("nowhere.plist")) }
        #expect(missing?.failureKind == .missingInput)
        #expect(missing?.problem.contains("no such file") == true)
        let folder = PropertyListFixture.error { _ = try PropertyListDocument.open(at: fixture.root) }
        #expect(folder?.failureKind == .missingInput)
    }

    @Test func deepNestingIsRefusedNotACrash() throws {
        let deep = String(repeating: "<array>", count: 5_000) + String(repeating: "</array>", count: 5_000)
        let error = try #require(try failure(Array("<plist>\(deep)</plist>".utf8)))
        #expect(error.problem.contains("nested more than"))
        let fine = String(repeating: "<array>", count: 150) + String(repeating: "</array>", count: 150)
        #expect(try failure(Array("<plist>\(fine)</plist>".utf8)) == nil)
    }

    @Test func aDateWithAFractionTooLongForAnIntegerIsRefusedNotACrash() throws {
        let long = "<plist><date>2010-01-02T03:04:05." + String(repeating: "9", count: 40) + "Z</date></plist>"
        let error = try #require(try failure(Array(long.utf8)))
        #expect(error.failureKind == .badInput)
        #expect(try failure(Array("<plist><date>2010-01-02T03:04:05.25Z</date></plist>".utf8)) == nil)
    }
}
