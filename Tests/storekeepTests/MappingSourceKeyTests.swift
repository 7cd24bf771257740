import Foundation
import Testing

/// A mapping key that no element of its array holds (a misspelt attribute key, relationship key or
/// `seed.when:`) would fill nothing while the run ends with exit 0: it is refused with exit 65
/// naming the mapping's line, before anything is written. A key marked `optional: true` may be
/// absent from every element; a key only the last element holds is found. The built binary.
@Suite("migrate: mapping keys no element holds")
struct MappingSourceKeyTests {
    /// A small Speech Timer 1 file: `yellow` and `red` only in the last speech type, no speech
    /// with notes or a recording, settings without `lastExport`.
    static let sparsePlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>version</key><integer>1</integer>
        <key>speechTypes</key><array>
          <dict><key>name</key><string>Short</string><key>green</key><real>60</real><key>builtIn</key><true/></dict>
          <dict><key>name</key><string>Long</string><key>green</key><real>300</real><key>yellow</key><real>360</real><key>red</key><real>420</real><key>builtIn</key><false/></dict>
        </array>
        <key>speeches</key><array>
          <dict><key>id</key><string>6F9619FF-8B86-D011-B42D-00C04FC964FF</string><key>title</key><string>Toast</string>
            <key>speaker</key><string>Ann</string><key>type</key><string>Short</string>
            <key>date</key><date>2020-02-29T12:00:00Z</date><key>duration</key><real>61.5</real></dict>
        </array>
        <key>settings</key><dict><key>vibrate</key><true/><key>theme</key><string>dark</string></dict>
        </dict></plist>

        """

    /// Runs `migrate` of `data` with the shipped mapping changed by `replace`; returns the result,
    /// the mapping and the 1-based line of `lineText` in it.
    static func migrate(_ w: ExitCodeWorkspace, data: String, replacing replace: [(String, String)], lineOf lineText: String?)
        throws -> (result: ProcessResult, mapping: String, line: Int) {
        let mapping = try w.mapping(replacing: replace)
        let lines = try String(contentsOfFile: mapping, encoding: .utf8).components(separatedBy: "\n")
        let line = lineText.flatMap { text in lines.firstIndex { $0.hasPrefix(text) } }.map { $0 + 1 } ?? 0
        let result = try StorekeepProcess.run(["migrate", data, "--to", w.path("t.store"), "--mapping", mapping])
        return (result, mapping, line)
    }

    @Test("a misspelt attribute key, relationship key or seed.when: is refused naming the mapping's line; nothing is written",
          arguments: [
            ("      title: title\n", "      title: titel\n", "      title: titel", "titel"),
            ("        key: type\n", "        key: typ\n", "        key: typ", "typ"),
            ("      when: builtIn ", "      when: builtin ", "  - entity: SpeechType", "builtin"),
            ("      theme: theme\n", "      theme: Theme\n", "      theme: Theme", "Theme"),
          ])
    func typoIsRefused(_ typo: (old: String, new: String, line: String, key: String)) throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let run = try Self.migrate(w, data: try w.speechTimerData(), replacing: [(typo.old, typo.new)], lineOf: typo.line)
        #expect(run.result.status == 65, "\(run.result)")
        #expect(run.result.stderr.contains("\(run.mapping):\(run.line):"), "line \(run.line): \(run.result)")
        #expect(run.result.stderr.contains("'\(typo.key)'"), "\(run.result)")
        #expect(run.result.stderr.contains("hint:"), "\(run.result)")
        #expect(!FileManager.default.fileExists(atPath: w.path("t.store")), "the target was written")
    }

    @Test("keys marked optional may be absent from every element; a key only the last element holds is found")
    func optionalAndLateKeys() throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let data = try w.write("sparse.plist", Self.sparsePlist)
        let run = try Self.migrate(w, data: data, replacing: [], lineOf: nil)
        #expect(run.result.status == 0, "\(run.result)")

        // Without the mark, the same absent key is refused.
        let strict = try ExitCodeWorkspace()
        defer { strict.directory.remove() }
        let strictData = try strict.write("sparse.plist", Self.sparsePlist)
        let refused = try Self.migrate(strict, data: strictData, replacing: [("notes: {key: notes, optional: true}", "notes: notes")], lineOf: "      notes: notes")
        #expect(refused.result.status == 65, "\(refused.result)")
        #expect(refused.result.stderr.contains("\(refused.mapping):\(refused.line):") && refused.result.stderr.contains("'notes'"), "\(refused.result)")
    }

    @Test("optional: takes true or false only")
    func optionalFlag() throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let run = try Self.migrate(w, data: try w.speechTimerData(), replacing: [("{key: notes, optional: true}", "{key: notes, optional: maybe}")],
                                   lineOf: "      notes:")
        #expect(run.result.status == 65, "\(run.result)")
        #expect(run.result.stderr.contains("\(run.mapping):\(run.line):") && run.result.stderr.contains("true or false"), "\(run.result)")
    }
}
