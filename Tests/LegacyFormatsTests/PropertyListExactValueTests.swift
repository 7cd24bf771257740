import Foundation
import LegacyFormats
import ObjectModel
import Testing

/// Values a reader could only change: refused with a place, never replaced.
@Suite("PropertyListDocument: values read exactly or refused")
struct PropertyListExactValueTests {
    let fixture: PropertyListFixture

    init() throws {
        fixture = try PropertyListFixture()
    }

    @Test("a UTF-16 string with an unpaired surrogate is refused by reading and by the whole-file check, not decoded with U+FFFD")
    func unpairedSurrogate() throws {
        // An array holding one UTF-16 string (0x61: one code unit) of the lone high surrogate D800.
        let lone = HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x61, 0xD8, 0x00]]).bytes
        let url = try fixture.write("lone.bplist", lone)
        let document = try PropertyListDocument.open(at: url)
        let read = PropertyListFixture.error { _ = try document.value(atKeyPath: "") }
        #expect(read?.problem.contains("surrogate that has no pair") == true, "\(String(describing: read))")
        #expect(read?.offset != nil)
        let checked = PropertyListFixture.error { try document.validate() }
        #expect(checked?.problem.contains("surrogate that has no pair") == true, "\(String(describing: checked))")

        let paired = HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x62, 0xD8, 0x3D, 0xDE, 0x00]]).bytes
        let fine = try PropertyListDocument.open(at: try fixture.write("pair.bplist", paired))
        #expect(try fine.value(atKeyPath: "") == .array([.string("😀")]))
    }

    @Test("a date with a long run of fraction digits is read, not an overflow")
    func longDateFraction() throws {
        let text = "<plist><array><date>2020-01-02T03:04:05.\(String(repeating: "9", count: 60))Z</date><date>2020-01-02T03:04:05.5x</date></array></plist>"
        let document = try PropertyListDocument.open(at: try fixture.write("dates.plist", Array(text.utf8)))
        let error = PropertyListFixture.error { _ = try document.value(atKeyPath: "") }
        #expect(error?.problem.contains("<date> holds '2020-01-02T03:04:05.5x'") == true, "\(String(describing: error))")
        let one = "<plist><date>2020-01-02T03:04:05.\(String(repeating: "9", count: 60))Z</date></plist>"
        let value = try PropertyListDocument.open(at: try fixture.write("date.plist", Array(one.utf8))).value(atKeyPath: "")
        guard case .date(let date)? = value else { Issue.record("\(String(describing: value))"); return }
        #expect(abs(date.timeIntervalSinceReferenceDate - 599_627_046) < 0.001)
    }

    /// A binary plist holding an array of one 16-byte integer whose halves are `high` and `low`.
    private func sixteenByteInteger(_ high: UInt64, _ low: UInt64) -> [UInt8] {
        HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x14] + HandMadeBinaryPlist.bigEndian(high) + HandMadeBinaryPlist.bigEndian(low)]).bytes
    }

    @Test("a 16-byte integer is read when it fits in 64 bits, and refused naming the object and its value when it does not",
          arguments: [
            (UInt64(0), UInt64(42), "42"),
            (UInt64.max, UInt64(bitPattern: -5), "-5"),
            (UInt64.max, UInt64(1) << 63, "-9223372036854775808"),
            (UInt64(0), UInt64(Int64.max), "9223372036854775807"),
            (UInt64(0), UInt64(1) << 63, "9223372036854775808"),
            (UInt64(0), UInt64.max, "18446744073709551615"),
            (UInt64(1), UInt64(0), "18446744073709551616"),
            (UInt64.max, UInt64(5), "-18446744073709551611"),
            (UInt64(1) << 63, UInt64(0), "-170141183460469231731687303715884105728"),
          ])
    func sixteenByteIntegers(_ case16: (high: UInt64, low: UInt64, decimal: String)) throws {
        let url = try fixture.write("int16-\(case16.decimal).bplist", sixteenByteInteger(case16.high, case16.low))
        let document = try PropertyListDocument.open(at: url)
        if let exact = Int64(case16.decimal) {
            #expect(try document.value(atKeyPath: "") == .array([.integer(exact)]))
            try document.validate()
            return
        }
        for error in [PropertyListFixture.error { _ = try document.value(atKeyPath: "") }, PropertyListFixture.error { try document.validate() }] {
            #expect(error?.failureKind == .badInput, "\(String(describing: error))")
            #expect(error?.offset == 10, "\(String(describing: error))")
            #expect(error?.description.contains(url.path) == true, "\(String(describing: error))")
            #expect(error?.problem.contains("object #1 is the integer \(case16.decimal), outside the 64-bit range") == true, "\(String(describing: error))")
            #expect(error?.hint?.isEmpty == false)
        }
    }

    @Test("an 8-byte integer is signed: all ones is -1, as every writer means it")
    func eightByteIntegerIsSigned() throws {
        let bytes = HandMadeBinaryPlist(objects: [[0xA1, 0x01], [0x13] + HandMadeBinaryPlist.bigEndian(.max)]).bytes
        let document = try PropertyListDocument.open(at: try fixture.write("int8.bplist", bytes))
        #expect(try document.value(atKeyPath: "") == .array([.integer(-1)]))
    }

    @Test("an XML <integer> outside Int64 is refused naming the line, never kept as its bit pattern",
          arguments: ["9223372036854775808", "18446744073709551615", "0xFFFFFFFFFFFFFFFF", "0x8000000000000000",
                      "-9223372036854775809", "99999999999999999999999", "+9223372036854775808"])
    func xmlIntegerOutOfRange(_ text: String) throws {
        let xml = "<plist>\n<array>\n<integer>1</integer>\n<integer>\(text)</integer>\n</array>\n</plist>\n"
        let url = try fixture.write("big.plist", Array(xml.utf8))
        let document = try PropertyListDocument.open(at: url)
        for error in [PropertyListFixture.error { _ = try document.value(atKeyPath: "") }, PropertyListFixture.error { try document.validate() }] {
            #expect(error?.line == 4, "\(String(describing: error))")
            #expect(error?.failureKind == .badInput)
            #expect(error?.problem.contains("<integer> holds '\(text)', outside the 64-bit range") == true, "\(String(describing: error))")
        }
    }

    @Test("XML integers at the ends of Int64 are read exactly; text that is no number stays malformed")
    func xmlIntegerEnds() throws {
        let xml = "<plist><array><integer>9223372036854775807</integer><integer>-9223372036854775808</integer><integer>0x7FFFFFFFFFFFFFFF</integer><integer>-0x10</integer></array></plist>"
        let document = try PropertyListDocument.open(at: try fixture.write("ends.plist", Array(xml.utf8)))
        #expect(try document.value(atKeyPath: "") == .array([.integer(.max), .integer(.min), .integer(.max), .integer(-16)]))
        let bad = try PropertyListDocument.open(at: try fixture.write("nan.plist", Array("<plist><integer>12a</integer></plist>".utf8)))
        let error = PropertyListFixture.error { _ = try bad.value(atKeyPath: "") }
        #expect(error?.problem.contains("malformed XML: <integer> holds '12a', not a whole number") == true, "\(String(describing: error))")
    }

    @Test("an XML <date> of a day the month does not have is refused, not rolled into the next month",
          arguments: ["2020-02-30T00:00:00Z", "2021-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2020-04-31T00:00:00Z",
                      "2020-06-31T12:00:00Z", "2020-09-31T00:00:00Z", "2020-11-31T00:00:00Z", "2020-01-32T00:00:00Z",
                      "2020-01-00T00:00:00Z", "2020-12-31T23:59:60Z"])
    func impossibleDay(_ text: String) throws {
        let url = try fixture.write("day.plist", Array("<plist>\n<date>\(text)</date>\n</plist>\n".utf8))
        let error = PropertyListFixture.error { _ = try PropertyListDocument.open(at: url).value(atKeyPath: "") }
        #expect(error?.line == 2, "\(String(describing: error))")
        #expect(error?.problem.contains("<date> holds '\(text)'") == true, "\(String(describing: error))")
    }

    @Test("the last day of every month, leap days included, is read as that day",
          arguments: ["2020-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2021-02-28T00:00:00Z", "2020-04-30T00:00:00Z",
                      "2020-12-31T23:59:59Z", "2021-01-31T00:00:00Z"])
    func lastDays(_ text: String) throws {
        let url = try fixture.write("last.plist", Array("<plist><date>\(text)</date></plist>".utf8))
        let value = try PropertyListDocument.open(at: url).value(atKeyPath: "")
        let expected = try #require(ISO8601DateFormatter().date(from: text))
        #expect(value == .date(expected))
    }
}
