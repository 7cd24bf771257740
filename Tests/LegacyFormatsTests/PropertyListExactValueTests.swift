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
}
