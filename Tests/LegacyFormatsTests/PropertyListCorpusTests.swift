import Foundation
import LegacyFormats
import ObjectModel
import Testing

/// Property lists written by Apple's software (see ../shared/corpus/MANIFEST.md).
@Suite("PropertyListDocument on the real-world corpus")
struct PropertyListCorpusTests {
    static let plists = Corpus.root.appendingPathComponent("plists")
    static let iTunes = plists.appendingPathComponent("iTunes Music Library.xml")
    static let broken = plists.appendingPathComponent("malformed-iphoto-History-Changes.plist")
    static var present: Bool { FileManager.default.fileExists(atPath: iTunes.path) }
    static let absent: Comment = "the shared corpus (../shared/corpus/plists) is absent; real property list tests skipped"

    @Test(.enabled(if: present, absent)) func iTunesLibraryShape() throws {
        let document = try PropertyListDocument.open(at: Self.iTunes)
        #expect(document.format == .xml)
        #expect(document.fileSize == 2_850_037)
        let shape = try document.shape()
        #expect(shape.type == "dictionary")
        let tracks = try #require(shape.children?["Tracks"])
        #expect(tracks.type == "dictionary")
        #expect(tracks.count == 1_779)
        #expect(tracks.element?.types == ["dictionary": 1_779])
        #expect(tracks.element?.children?["Track ID"]?.present == 1_779)
        #expect(tracks.element?.children?["Name"]?.types == ["string": 1_779])
        let playlists = try #require(shape.children?["Playlists"])
        #expect(playlists.type == "array")
        #expect(playlists.element?.children?["Name"] != nil)
        #expect(shape.children?["Date"]?.type == "date")
        try document.validate()
    }

    @Test(.enabled(if: present, absent)) func iTunesLibraryMatchesPlistlib() throws {
        let fixture = try PropertyListFixture()
        let facts = try fixture.python("""
            import plistlib, sys
            with open(sys.argv[1], 'rb') as f: lib = plistlib.load(f)
            print(len(lib['Tracks']))
            print(len(lib['Playlists']))
            first = sorted(lib['Tracks'], key=int)[0]
            print(first)
            print(lib['Tracks'][first]['Name'])
            print('|'.join(p.get('Name', '') for p in lib['Playlists']))
            print(sum(len(p.get('Playlist Items', [])) for p in lib['Playlists']))
            with open('library.bplist', 'wb') as f: plistlib.dump(lib, f, fmt=plistlib.FMT_BINARY)
            """, [Self.iTunes.path]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document = try PropertyListDocument.open(at: Self.iTunes)
        guard case .dictionary(let tracks)? = try document.value(atKeyPath: "Tracks") else {
            Issue.record("Tracks is not a dictionary")
            return
        }
        #expect(String(tracks.count) == facts[0])
        #expect(try document.elementCount(atKeyPath: "Playlists").map(String.init) == facts[1])
        #expect(try document.value(atKeyPath: "Tracks.\(facts[2]).Name") == .string(facts[3]))
        var names: [String] = []
        var items = 0
        try document.forEachElement(atKeyPath: "Playlists") { _, playlist in
            if case .string(let name)? = playlist[key: "Name"] { names.append(name) } else { names.append("") }
            items += playlist[key: "Playlist Items"]?.count ?? 0
            return true
        }
        #expect(names.joined(separator: "|") == facts[4])
        #expect(String(items) == facts[5])

        let binary = try PropertyListDocument.open(at: fixture.url("library.bplist"))
        #expect(binary.format == .binary)
        #expect(try binary.shape() == document.shape())
        #expect(try binary.value(atKeyPath: "Tracks") == .dictionary(tracks))
        var binaryNames: [String] = []
        try binary.forEachElement(atKeyPath: "Playlists") { _, playlist in
            if case .string(let name)? = playlist[key: "Name"] { binaryNames.append(name) } else { binaryNames.append("") }
            return true
        }
        #expect(binaryNames == names)
    }

    @Test(.enabled(if: present, absent)) func corruptIPhotoHistoryFailsWithItsLine() throws {
        let document = try PropertyListDocument.open(at: Self.broken)
        #expect(document.format == .xml)
        var delivered = 0
        let failures: [PropertyListError?] = [
            PropertyListFixture.error { _ = try document.shape() },
            PropertyListFixture.error { try document.validate() },
            PropertyListFixture.error { _ = try document.value(atKeyPath: "") },
            PropertyListFixture.error { _ = try document.elementCount(atKeyPath: "") },
            PropertyListFixture.error {
                try document.forEachElement(atKeyPath: "") { _, _ in
                    delivered += 1
                    return true
                }
            },
        ]
        for failure in failures {
            let error = try #require(failure)
            #expect(error.failureKind == .badInput)
            #expect((2780...2790).contains(error.line ?? 0), "\(error.description)")
            #expect(error.path == Self.broken.path)
            #expect(error.description.hasPrefix("\(Self.broken.path):\(error.line ?? 0): malformed XML:"))
            #expect(error.hint != nil)
        }
        #expect(failures.first??.line == 2786)
        #expect(failures.first??.problem == "malformed XML: '<dict>' inside the tag <key>")
        #expect(delivered > 100)
    }
}
