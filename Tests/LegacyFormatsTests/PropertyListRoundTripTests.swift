import Foundation
import LegacyFormats
import ObjectModel
import Testing

/// The same content written by Python's plistlib as XML and as binary must read back identically.
@Suite("PropertyListDocument on plistlib output")
struct PropertyListRoundTripTests {
    static let writer = """
        import plistlib, datetime
        root = {
            'string': 'hello', 'empty string': '', 'unicode': 'Grüße, 日本語 🎉',
            'escaped': 'a & b < c > d "q" \\'s\\'',
            'negative': -42, 'zero': 0, 'small': 255, 'medium': 65535, 'large': 2**32, 'max': 2**63 - 1, 'min': -2**63,
            'real': 3.25, 'tiny real': -1.5e-10, 'yes': True, 'no': False,
            'old date': datetime.datetime(1969, 7, 20, 20, 17, 40), 'new date': datetime.datetime(2024, 2, 29, 12, 0, 1),
            'data': bytes(range(256)) * 20, 'small data': b'\\x00\\x01', 'empty data': b'',
            'empty array': [], 'empty dict': {},
            'nested': {'a': {'b': {'c': 'deep'}}},
            'people': [{'name': 'Ann', 'age': 30}, {'name': 'Bob'}, {'name': 'Cy', 'age': 5, 'tags': ['x', 'y']}],
            'mixed': [1, 'two', 3.0, True, [], {}],
        }
        with open('sample.xml', 'wb') as f: plistlib.dump(root, f, fmt=plistlib.FMT_XML)
        with open('sample.bplist', 'wb') as f: plistlib.dump(root, f, fmt=plistlib.FMT_BINARY)
        """

    static var expected: PropertyListValue {
        var bigData = Data()
        for _ in 0..<20 { bigData.append(contentsOf: (0...255).map { UInt8($0) }) }
        return .dictionary([
            "string": .string("hello"), "empty string": .string(""), "unicode": .string("Grüße, 日本語 🎉"),
            "escaped": .string("a & b < c > d \"q\" 's'"),
            "negative": .integer(-42), "zero": .integer(0), "small": .integer(255), "medium": .integer(65535),
            "large": .integer(1 << 32), "max": .integer(.max), "min": .integer(.min),
            "real": .real(3.25), "tiny real": .real(-1.5e-10), "yes": .boolean(true), "no": .boolean(false),
            "old date": .date(Date(timeIntervalSince1970: -14_182_940)),
            "new date": .date(Date(timeIntervalSince1970: 1_709_208_001)),
            "data": .data(bigData), "small data": .data(Data([0, 1])), "empty data": .data(Data()),
            "empty array": .array([]), "empty dict": .dictionary([:]),
            "nested": .dictionary(["a": .dictionary(["b": .dictionary(["c": .string("deep")])])]),
            "people": .array([
                .dictionary(["name": .string("Ann"), "age": .integer(30)]),
                .dictionary(["name": .string("Bob")]),
                .dictionary(["name": .string("Cy"), "age": .integer(5), "tags": .array([.string("x"), .string("y")])]),
            ]),
            "mixed": .array([.integer(1), .string("two"), .real(3.0), .boolean(true), .array([]), .dictionary([:])]),
        ])
    }

    let fixture: PropertyListFixture
    let xml: PropertyListDocument
    let binary: PropertyListDocument

    init() throws {
        fixture = try PropertyListFixture()
        try fixture.python(Self.writer)
        xml = try PropertyListDocument.open(at: fixture.url("sample.xml"))
        binary = try PropertyListDocument.open(at: fixture.url("sample.bplist"))
    }

    @Test func formatsAreDetected() {
        #expect(xml.format == .xml)
        #expect(binary.format == .binary)
        #expect(xml.fileSize > binary.fileSize)
    }

    @Test func bothReadersGiveTheExpectedValues() throws {
        let fromXML = try xml.value(atKeyPath: "")
        let fromBinary = try binary.value(atKeyPath: "")
        #expect(fromXML == Self.expected)
        #expect(fromBinary == Self.expected)
        try xml.validate()
        try binary.validate()
    }

    @Test(arguments: ["xml", "binary"]) func keyPaths(_ format: String) throws {
        let document = format == "xml" ? xml : binary
        #expect(try document.value(atKeyPath: "nested.a.b.c") == .string("deep"))
        #expect(try document.value(atKeyPath: "nested.a")?[key: "b"]?[key: "c"] == .string("deep"))
        #expect(try document.value(atKeyPath: "nested.x") == nil)
        #expect(try document.value(atKeyPath: "string.x") == nil)
        #expect(try document.value(atKeyPath: "max") == .integer(.max))
        #expect(try document.elementCount(atKeyPath: "people") == 3)
        #expect(try document.elementCount(atKeyPath: "empty array") == 0)
        #expect(try document.elementCount(atKeyPath: "absent") == nil)
        let notArray = PropertyListFixture.error { _ = try document.elementCount(atKeyPath: "nested") }
        #expect(notArray?.failureKind == .badInput)
        #expect(notArray?.problem.contains("is a dictionary, not an array") == true)
    }

    @Test(arguments: ["xml", "binary"]) func forEachElementResumes(_ format: String) throws {
        let document = format == "xml" ? xml : binary
        guard case .array(let people)? = Self.expected[key: "people"] else { return }
        for start in 0...4 {
            var seen: [(Int, PropertyListValue)] = []
            try document.forEachElement(atKeyPath: "people", from: start) { index, value in
                seen.append((index, value))
                return true
            }
            #expect(seen.map(\.0) == Array(start..<max(start, 3)))
            #expect(seen.map(\.1) == Array(people.dropFirst(start)))
        }
        var calls = 0
        try document.forEachElement(atKeyPath: "people", from: 1) { index, _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
        try document.forEachElement(atKeyPath: "absent") { _, _ in
            Issue.record("called for an absent path")
            return true
        }
    }

    @Test(arguments: ["xml", "binary"]) func selectedKeysAreTheElementsOwnValues(_ format: String) throws {
        let document = format == "xml" ? xml : binary
        let selection = PropertyListKeySelection(keys: ["tags", "name", "missing", "age"])
        for start in [0, 2] {
            var seen: [(Int, [PropertyListValue?])] = []
            try document.forEachElement(atKeyPath: "people", from: start, selecting: selection) { index, values, typeName in
                #expect(typeName == "dictionary")
                seen.append((index, try #require(values)))
                return true
            }
            guard case .array(let people)? = Self.expected[key: "people"] else { return }
            #expect(seen.map(\.0) == Array(start..<3))
            #expect(seen.map(\.1) == people.dropFirst(start).map { person in selection.keys.map { person[key: $0] } })
        }
        var types: [String] = []
        try document.forEachElement(atKeyPath: "mixed", selecting: selection) { _, values, typeName in
            if values == nil { types.append(typeName) }
            return true
        }
        #expect(types == ["integer", "string", "real", "boolean", "array"], "elements that are not dictionaries say what they are")
    }

    struct Stop: Error, Equatable {}

    @Test(arguments: ["xml", "binary"]) func bodyErrorsComeOutUnchanged(_ format: String) throws {
        let document = format == "xml" ? xml : binary
        #expect(throws: Stop()) {
            try document.forEachElement(atKeyPath: "people") { _, _ in throw Stop() }
        }
        let negative = PropertyListFixture.error { try document.forEachElement(atKeyPath: "people", from: -1) { _, _ in true } }
        #expect(negative?.failureKind == .usage)
    }

    @Test func shapesAgreeAndSummariseArraysOfDictionaries() throws {
        let shape = try xml.shape()
        #expect(try binary.shape() == shape)
        #expect(shape.type == "dictionary")
        #expect(shape.count == 25)
        let people = try #require(shape.children?["people"])
        #expect(people.type == "array")
        #expect(people.count == 3)
        let person = try #require(people.element)
        #expect(person.types == ["dictionary": 3])
        #expect(person.children?["name"]?.present == 3)
        #expect(person.children?["age"]?.present == 2)
        #expect(person.children?["age"]?.types == ["integer": 2])
        let tags = try #require(person.children?["tags"])
        #expect(tags.present == 1)
        #expect(tags.count == 2)
        #expect(tags.element?.types == ["string": 2])
        let mixed = try #require(shape.children?["mixed"]?.element)
        #expect(mixed.type == "mixed")
        #expect(mixed.types == ["integer": 1, "string": 1, "real": 1, "boolean": 1, "array": 1, "dictionary": 1])
        #expect(shape.children?["nested"]?.children?["a"]?.children?["b"]?.type == "dictionary")
        let shallow = try xml.shape(maxDepth: 1)
        #expect(shallow.children?["nested"] == PropertyListShape(type: "dictionary", count: 1))
        #expect(try binary.shape(maxDepth: 1) == shallow)
    }

    @Test func shapeEncodesWithStableFieldNames() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let shape = try xml.shape()
        let json = String(decoding: try encoder.encode(try #require(shape.children?["people"])), as: UTF8.self)
        #expect(json.contains("\"type\":\"array\""))
        #expect(json.contains("\"count\":3"))
        #expect(json.contains("\"element\":{"))
        #expect(json.contains("\"present\":2"))
        #expect(json.contains("\"types\":{\"integer\":2}"))
    }

    @Test func wideDictionariesAreSummarisedLikeArrays() throws {
        try fixture.python("""
            import plistlib
            tracks = {str(i): {'Name': 'n%d' % i, 'Year': 2000 + i % 5} for i in range(300)}
            tracks['7']['Rating'] = 80
            with open('wide.bplist', 'wb') as f: plistlib.dump({'Tracks': tracks}, f, fmt=plistlib.FMT_BINARY)
            with open('wide.xml', 'wb') as f: plistlib.dump({'Tracks': tracks}, f)
            """)
        for name in ["wide.bplist", "wide.xml"] {
            let shape = try PropertyListDocument.open(at: fixture.url(name)).shape(maxKeys: 100)
            let tracks = try #require(shape.children?["Tracks"])
            #expect(tracks.type == "dictionary")
            #expect(tracks.count == 300)
            #expect(tracks.children == nil)
            #expect(tracks.element?.types == ["dictionary": 300])
            #expect(tracks.element?.children?["Name"]?.present == 300)
            #expect(tracks.element?.children?["Rating"]?.present == 1)
        }
    }
}
