import Foundation
import LegacyFormats
import Testing

/// A check beside a load (``PropertyListDocument/validate(leavingToTheLoad:)``) leaves the leaves
/// of the mapped arrays to the load; between them every byte of the file is still checked.
@Suite("A whole-file check that leaves the mapped arrays' leaves to the load")
struct CheckLeftToTheLoadTests {
    let fixture: PropertyListFixture

    init() throws {
        fixture = try PropertyListFixture()
    }

    func document(_ body: String) throws -> PropertyListDocument {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """
        return try PropertyListDocument.open(at: fixture.write("f-\(UUID().uuidString).plist", Array(text.utf8)))
    }

    /// An element whose unmapped key `extra` holds a leaf that is not what its tag says.
    static let damagedElement = "<dict><key>name</key><string>a</string><key>extra</key><integer>12x</integer></dict>"
    static let goodElement = "<dict><key>name</key><string>b</string><key>extra</key><integer>12</integer></dict>"

    @Test func aDamagedLeafInAMappedArrayIsFoundByTheLoadEvenWhereItSelectsNothing() throws {
        let file = try document("<key>items</key><array>\(Self.goodElement)\(Self.damagedElement)</array>")
        #expect(throws: PropertyListError.self) { try file.validate() }
        try file.validate(leavingToTheLoad: ["items"])
        var names: [String] = []
        let error = PropertyListFixture.error {
            try file.forEachElement(atKeyPath: "items", selecting: PropertyListKeySelection(keys: ["name"])) { _, values, _ in
                if case .string(let name)?? = values?.first { names.append(name) }
                return true
            }
        }
        #expect(error?.problem.contains("'12x'") == true, "\(String(describing: error))")
        #expect(error?.line == 5)
        #expect(names == ["b"], "the load stops at the damaged element")
    }

    @Test(arguments: [
        // A leaf outside the mapped array.
        "<key>items</key><array>\(goodElement)</array><key>other</key><integer>12x</integer>",
        // Structure inside the mapped array: a key without a value.
        "<key>items</key><array><dict><key>name</key></dict></array>",
        // The second of a repeated key is not what a lookup reads: checked whole.
        "<key>items</key><array>\(goodElement)</array><key>items</key><array>\(damagedElement)</array>",
        // A mapped path below a dictionary leaves only that array: its sibling is checked.
        "<key>group</key><dict><key>items</key><array>\(goodElement)</array><key>more</key><array>\(damagedElement)</array></dict>",
    ])
    func everythingElseIsCheckedWhole(body: String) throws {
        let file = try document(body)
        #expect(throws: PropertyListError.self) { try file.validate(leavingToTheLoad: ["items", "group.items"]) }
    }

    @Test func theFirstOfARepeatedKeyIsTheOneLeftToTheLoadAndTheOneItReads() throws {
        let file = try document("<key>items</key><array>\(Self.damagedElement)</array><key>items</key><array>\(Self.goodElement)</array>")
        try file.validate(leavingToTheLoad: ["items"])
        #expect(throws: PropertyListError.self, "the load reads the first 'items', and checks it") {
            try file.forEachElement(atKeyPath: "items", selecting: PropertyListKeySelection(keys: ["name"])) { _, _, _ in true }
        }
    }

    @Test func aMappedValueThatIsNotAnArrayIsCheckedByTheLoadThatBuildsIt() throws {
        let file = try document("<key>settings</key><dict><key>theme</key><integer>12x</integer></dict>")
        try file.validate(leavingToTheLoad: ["settings"])
        #expect(throws: PropertyListError.self) { _ = try file.value(atKeyPath: "settings") }
    }

    @Test func aMappedArrayBelowADictionaryIsLeftToTheLoad() throws {
        let file = try document("<key>group</key><dict><key>items</key><array>\(Self.damagedElement)</array></dict>")
        #expect(throws: PropertyListError.self) { try file.validate() }
        try file.validate(leavingToTheLoad: ["group.items"])
    }
}
