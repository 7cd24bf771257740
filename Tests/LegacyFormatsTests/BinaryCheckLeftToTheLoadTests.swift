import Foundation
import LegacyFormats
import Testing

/// In a binary file, a check beside a load (``PropertyListDocument/validate(leavingToTheLoad:)``)
/// does not visit the elements of the mapped arrays: the load reads every element and checks what
/// it does not select, under one visit budget for the whole array. Everything else is checked whole.
@Suite("A binary whole-file check that leaves the mapped arrays' elements to the load")
struct BinaryCheckLeftToTheLoadTests {
    let fixture: PropertyListFixture

    init() throws {
        fixture = try PropertyListFixture()
    }

    /// Object numbers of the hand-made files below (one-byte references).
    enum Object {
        static let itemsKey: UInt8 = 1, nameKey: UInt8 = 2, extraKey: UInt8 = 3, a: UInt8 = 4, b: UInt8 = 5
        static let twelve: UInt8 = 6, damaged: UInt8 = 7, goodElement: UInt8 = 8, damagedElement: UInt8 = 9
        static let otherKey: UInt8 = 10, groupKey: UInt8 = 11
    }

    /// A file whose root (object 0) is `root`, the objects after it being the shared ones above and
    /// `more` from number 12 on. The damaged element's unmapped `extra` is an object of a type no
    /// writer makes (marker 0x70), a leaf a load selecting `name` does not build.
    func document(root: [UInt8], more: [[UInt8]] = []) throws -> PropertyListDocument {
        let objects: [[UInt8]] = [
            root,
            [0x55] + Array("items".utf8), [0x54] + Array("name".utf8), [0x55] + Array("extra".utf8),
            [0x51, 0x61], [0x51, 0x62], [0x10, 12], [0x70],
            [0xD2, Object.nameKey, Object.extraKey, Object.b, Object.twelve],
            [0xD2, Object.nameKey, Object.extraKey, Object.a, Object.damaged],
            [0x55] + Array("other".utf8), [0x55] + Array("group".utf8),
        ] + more
        let bytes = HandMadeBinaryPlist(objects: objects).bytes
        return try PropertyListDocument.open(at: fixture.write("f-\(UUID().uuidString).bplist", bytes))
    }

    func names(in file: PropertyListDocument, at path: String = "items") throws -> [String] {
        var names: [String] = []
        try file.forEachElement(atKeyPath: path, selecting: PropertyListKeySelection(keys: ["name"])) { _, values, _ in
            if case .string(let name)?? = values?.first { names.append(name) }
            return true
        }
        return names
    }

    @Test func aDamagedValueInAMappedArrayIsFoundByTheLoadEvenWhereItSelectsNothing() throws {
        // {items: [good, damaged]}: objects 12 is the array.
        let file = try document(root: [0xD1, Object.itemsKey, 12], more: [[0xA2, Object.goodElement, Object.damagedElement]])
        #expect(throws: PropertyListError.self) { try file.validate() }
        try file.validate(leavingToTheLoad: ["items"])
        let error = PropertyListFixture.error { _ = try names(in: file) }
        #expect(error?.failureKind == .badInput)
        #expect(error?.problem.contains("0x70") == true, "\(String(describing: error))")
    }

    @Test func anElementThatIsNotADictionaryIsCheckedByTheLoad() throws {
        // {items: [good, [damaged]]}: the load reports the element's type and still reads it through.
        let file = try document(root: [0xD1, Object.itemsKey, 12], more: [[0xA2, Object.goodElement, 13], [0xA1, Object.damaged]])
        try file.validate(leavingToTheLoad: ["items"])
        #expect(PropertyListFixture.error { _ = try names(in: file) }?.problem.contains("0x70") == true)
    }

    @Test(arguments: [
        // A value outside the mapped array: {items: [good], other: damaged}.
        ([0xD2, Object.itemsKey, Object.otherKey, 12, Object.damaged], [[0xA1, Object.goodElement]]),
        // The second of a repeated key is not what a lookup reads: {items: [good], items: [damaged]}.
        ([0xD2, Object.itemsKey, Object.itemsKey, 12, 13], [[0xA1, Object.goodElement], [0xA1, Object.damagedElement]]),
        // A mapped path below a dictionary leaves only that array: {group: {items: [good], other: [damaged]}}.
        ([0xD1, Object.groupKey, 12], [[0xD2, Object.itemsKey, Object.otherKey, 13, 14], [0xA1, Object.goodElement], [0xA1, Object.damagedElement]]),
        // A mapped value that is not an array: {items: {name: damaged}}.
        ([0xD1, Object.itemsKey, 12], [[0xD1, Object.nameKey, Object.damaged]]),
    ] as [([UInt8], [[UInt8]])])
    func everythingElseIsCheckedWhole(root: [UInt8], more: [[UInt8]]) throws {
        let file = try document(root: root, more: more)
        let error = PropertyListFixture.error { try file.validate(leavingToTheLoad: ["items", "group.items"]) }
        #expect(error?.problem.contains("0x70") == true, "\(String(describing: error))")
    }

    @Test func theFirstOfARepeatedKeyIsTheOneLeftToTheLoadAndTheOneItReads() throws {
        // {items: [damaged], items: [good]}
        let file = try document(root: [0xD2, Object.itemsKey, Object.itemsKey, 12, 13], more: [[0xA1, Object.damagedElement], [0xA1, Object.goodElement]])
        try file.validate(leavingToTheLoad: ["items"])
        let error = PropertyListFixture.error { _ = try names(in: file) }
        #expect(error?.problem.contains("0x70") == true, "the load reads the first 'items', and checks it")
    }

    @Test func aMappedArrayBelowADictionaryIsLeftToTheLoad() throws {
        // {group: {items: [good, damaged]}}
        let file = try document(root: [0xD1, Object.groupKey, 12], more: [[0xD1, Object.itemsKey, 13], [0xA2, Object.goodElement, Object.damagedElement]])
        #expect(throws: PropertyListError.self) { try file.validate() }
        try file.validate(leavingToTheLoad: ["group.items"])
        #expect(PropertyListFixture.error { _ = try names(in: file, at: "group.items") }?.problem.contains("0x70") == true)
    }

    /// Every element refers to one dictionary that repeats the selected key 1,000 times, each time
    /// for one shared string the load keeps decoded after the first: no value is read again, yet
    /// every look counts, or the load would take elements × keys steps (here 2,000,000; a crafted
    /// file of a few megabytes could ask for 10^12) without ever reaching its limit.
    @Test func valuesFoundInACacheStillCountAgainstTheBudget() throws {
        let elements = 2_000, keys = 1_000
        func count(_ value: Int) -> [UInt8] { [0x11, UInt8(value >> 8), UInt8(value & 0xFF)] }
        var objects: [[UInt8]] = [
            [0xD1, 1, 2],
            [0x55] + Array("items".utf8),
            [0xAF] + count(elements) + Array(repeating: 3, count: elements),
            [0xDF] + count(keys) + Array(repeating: 4, count: keys) + Array(repeating: 75, count: keys),
            [0x55] + Array("title".utf8),
        ]
        // Unreferenced fillers put the string more than 64 objects away from the dictionary: shared.
        objects += Array(repeating: [0x09], count: 70)
        objects.append([0x51, 0x78])
        var plist = HandMadeBinaryPlist(objects: objects)
        plist.offsetSize = 2
        let file = try PropertyListDocument.open(at: fixture.write("repeated-\(UUID().uuidString).bplist", plist.bytes))
        let error = PropertyListFixture.error {
            try file.forEachElement(atKeyPath: "items", selecting: PropertyListKeySelection(keys: ["title"])) { _, values, _ in
                #expect(values?.first == .string("x"))
                return true
            }
        }
        #expect(error?.problem.contains("multiplies them") == true, "\(String(describing: error))")
    }

    /// plistlib writes a container that several parents hold once (it keeps objects by identity):
    /// here one array of 1,000 strings that 1,100 elements share. Each element alone is small, so
    /// only a budget for the whole array (as the whole-file check has one) stops the load.
    @Test func aValueSharedByEveryElementIsCutShortByTheLoadAlone() throws {
        try fixture.python("""
            import plistlib
            shared = ['x%d' % i for i in range(1000)]
            items = [{'name': 'n%d' % i, 'extra': shared} for i in range(1100)]
            open('shared.bplist', 'wb').write(plistlib.dumps({'items': items}, fmt=plistlib.FMT_BINARY))
            """)
        let file = try PropertyListDocument.open(at: fixture.url("shared.bplist"))
        #expect(PropertyListFixture.error { try file.validate() }?.problem.contains("multiplies them") == true)
        try file.validate(leavingToTheLoad: ["items"])
        let unselected = PropertyListFixture.error { _ = try names(in: file) }
        #expect(unselected?.problem.contains("multiplies them") == true, "\(String(describing: unselected))")
        let selected = PropertyListFixture.error {
            try file.forEachElement(atKeyPath: "items", selecting: PropertyListKeySelection(keys: ["extra"])) { _, _, _ in true }
        }
        #expect(selected?.problem.contains("multiplies them") == true, "\(String(describing: selected))")
    }
}
