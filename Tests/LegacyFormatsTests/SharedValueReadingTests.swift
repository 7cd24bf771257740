import Foundation
@testable import LegacyFormats
import Testing

/// plistlib writes an equal scalar once and refers to it from every element that holds it. The
/// binary reader keeps such shared values decoded (in a cache whose places are reused), so every
/// element must still read its own values, with more distinct shared values than the cache has
/// places, and again after the reader gave its memory back.
@Suite("Shared values in binary property lists")
struct SharedValueReadingTests {
    static let count = 20_000

    static let writer = """
        import plistlib, datetime
        base = datetime.datetime(2020, 1, 1)
        items = [{'n': i, 'title': 'talk %d' % i, 'kind': ['keynote', 'toast', 'pitch', 'eulogy', 'lecture'][i % 5],
                  'length': float(i % 9000) + 0.5, 'when': base + datetime.timedelta(days=i % 700),
                  'flag': i % 3 == 0}
                 for i in range(\(count))]
        with open('shared.bplist', 'wb') as f: plistlib.dump({'items': items}, f, fmt=plistlib.FMT_BINARY)
        """

    static func expected(_ index: Int) -> [PropertyListValue?] {
        let kinds = ["keynote", "toast", "pitch", "eulogy", "lecture"]
        let base = Date(timeIntervalSince1970: 1_577_836_800)
        return [
            .integer(Int64(index)), .string("talk \(index)"), .string(kinds[index % 5]), .real(Double(index % 9000) + 0.5),
            .date(base.addingTimeInterval(Double(index % 700) * 86_400)), .boolean(index % 3 == 0), nil,
        ]
    }

    @Test func everyElementReadsItsOwnValuesThroughTheSharedValueCache() throws {
        let fixture = try PropertyListFixture()
        try fixture.python(Self.writer)
        let document = try PropertyListDocument.open(at: fixture.url("shared.bplist"))
        let selection = PropertyListKeySelection(keys: ["n", "title", "kind", "length", "when", "flag", "absent"])
        for pass in 0..<2 {
            var mismatches: [Int] = []
            var seen = 0
            try document.forEachElement(atKeyPath: "items", selecting: selection) { index, values, _ in
                if values != Self.expected(index) { mismatches.append(index) }
                seen += 1
                return true
            }
            #expect(seen == Self.count, "pass \(pass)")
            #expect(mismatches.isEmpty, "pass \(pass): first elements read wrongly: \(mismatches.prefix(5))")
            document.releaseMemory()
        }
    }
}
