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

    /// A Speech Timer data file of `count` speeches without recordings, written by the
    /// repository's generator `script` into `fixture`'s folder.
    static func speeches(_ count: Int, writtenBy script: String, in fixture: PropertyListFixture) throws -> URL {
        let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(script)
        try fixture.python("import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
                           [generator.path, "speeches.bplist", "--speeches", String(count), "--recording-every", "0"])
        return fixture.url("speeches.bplist")
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

    /// The benchmark's data file shares some 6,000 durations among its speeches, each written where
    /// it first occurs: a check goes back once for each (about 1.8 times the file's pages in all at
    /// 100,000 speeches, less for larger files), but one that forgot the ones it had read
    /// (collisions in a cache of 8,192 places) went back again and again: 5.9 times the file.
    @Test func aValidatingCopyReadsTheFileFewTimes() throws {
        let fixture = try PropertyListFixture()
        let document = try PropertyListDocument.open(at: try Self.speeches(100_000, writtenBy: "Benchmarks/generate-speechtimer-bplist.py", in: fixture))
        let copy = try document.reopenedForValidation()
        try copy.validate()
        let filePages = Int((document.fileSize + 4095) / 4096)
        #expect(copy.pagesRead <= filePages * 5 / 2, "\(copy.pagesRead) pages read for a file of \(filePages)")
        #expect(document.pagesRead < 10, "the original document keeps its own cache, untouched")
    }

    /// A migration's read of a file as plistlib writes it (parents first: each distinct duration
    /// written where it first occurs, early in the file) keeps more of the shared values it decoded
    /// in sets of four places than direct-mapped in as many: at 100,000 speeches it reads 1.25 times
    /// the file's pages (the same reads every time: the file and the cache are deterministic); a
    /// direct-mapped cache of 8,192 places lost more of the 5,500 durations and read 1.31 times.
    @Test func aMigrationReadOfAPlistlibFileReadsItsPagesAboutOnce() throws {
        let fixture = try PropertyListFixture()
        let document = try PropertyListDocument.open(at: try Self.speeches(100_000, writtenBy: "scripts/generate-speechtimer-plist.py", in: fixture))
        let selection = PropertyListKeySelection(keys: ["id", "title", "speaker", "type", "date", "duration", "notes"])
        var seen = 0
        try document.forEachElement(atKeyPath: "speeches", selecting: selection) { _, values, _ in
            if values?[5] != nil { seen += 1 }
            return true
        }
        #expect(seen == 100_000)
        let filePages = Int((document.fileSize + 4095) / 4096)
        #expect(document.pagesRead * 100 <= filePages * 128, "\(document.pagesRead) pages read for a file of \(filePages)")
    }

    @Test func setsOfWaysKeepReferencesThatShareTheirLowBits() {
        var direct = ReferenceCache<Int>(capacity: 16)
        var ways = ReferenceCache<Int>(capacity: 16, ways: 4)
        let colliding: [UInt64] = [3, 19, 35, 51]
        for reference in colliding {
            direct.keep(Int(reference), for: reference)
            ways.keep(Int(reference), for: reference)
        }
        #expect(colliding.filter { direct.value(for: $0) != nil } == [51])
        #expect(colliding.allSatisfy { ways.value(for: $0) == Int($0) })
        ways.keep(67, for: 67)
        #expect(colliding.filter { ways.value(for: $0) != nil }.count == 3, "a full set gives up one place")
        #expect(ways.value(for: 67) == 67)
        ways.keep(190, for: 19)
        #expect(ways.value(for: 19) == 190 || ways.value(for: 19) == nil)
    }
}
