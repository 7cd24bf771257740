import ObjectModel
import Testing

@Suite("SyncName: one rule for content names and peer IDs")
struct SyncNameTests {
    /// Tricky names and whether the rule takes them.
    static let table: [(String, Bool)] = [
        ("", false), (".", false), ("..", false), ("a/b", false), ("/a", false), (".hidden", false),
        ("a.", true), ("a..b", true), ("notes-app_2.1", true), ("A", true), ("-", true), ("_", true),
        (String(repeating: "a", count: 200), true), (String(repeating: "a", count: 201), false),
        ("café", false), ("e\u{301}", false), ("日本", false), ("a\u{0}b", false), ("\u{0}", false),
        ("a b", false), ("a\nb", false), ("a\\b", false), ("a:b", false), ("ａ", false), ("\r\n", false),
    ]

    @Test("the table of tricky names", arguments: table)
    func rule(name: String, valid: Bool) {
        #expect(SyncName.isValid(name) == valid, "\(name.debugDescription)")
    }

    @Test("a name made from a model's name follows the rule, character by character")
    func made() {
        for text in ["", ".", "...", ".Notes App", "café", "e\u{301}x", String(repeating: "x", count: 500), "a/b", "\u{0}", "Notes"] {
            #expect(SyncName.isValid(SyncName.made(from: text)), "\(text.debugDescription) → \(SyncName.made(from: text))")
        }
        #expect(SyncName.made(from: ".Notes App") == "Notes-App")
        #expect(SyncName.made(from: "e\u{301}x") == "-x", "one '-' for one accented letter, however it is encoded")
        #expect(SyncName.made(from: "...") == "storekeep")
        #expect(SyncName.made(from: String(repeating: "x", count: 500)).utf8.count == SyncName.maximumLength)
    }
}
