extension String {
    /// The receiver as a quoted SQL identifier that is safe whatever characters it holds:
    /// `Speech` → `"Speech"`, `a"b` → `"a""b"` (an embedded quote is doubled, as SQLite's grammar
    /// requires; GRDB's `quotedDatabaseIdentifier` does not double it, so a name read from a file
    /// could close the identifier and inject SQL).
    ///
    /// A name holding U+0000 cannot be passed to SQLite at all (its statements end at the first
    /// NUL): readers refuse such names before they reach SQL (``ManagedModel/problems()`` and the
    /// Core Data reader). Should one slip through, the quoted text ends inside an open identifier
    /// and SQLite reports a syntax error instead of running anything.
    package var quotedSQLIdentifier: String {
        guard contains("\"") else { return "\"" + self + "\"" }
        return "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The receiver as a SQL string literal that SQLite reads back exactly: `it's` → `'it''s'`
    /// (an embedded quote is doubled), and a NUL, which would end the statement's text, joined in
    /// as `char(0)`: `a\0b` → `('a' || char(0) || 'b')`.
    package var quotedSQLLiteral: String {
        guard unicodeScalars.contains("\u{0}") else { return "'" + replacingOccurrences(of: "'", with: "''") + "'" }
        return "(" + components(separatedBy: "\u{0}").map(\.quotedSQLLiteral).joined(separator: " || char(0) || ") + ")"
    }
}
