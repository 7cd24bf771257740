extension String {
    /// The receiver as it should appear in a message: control characters written as escapes
    /// (`Ta\0sk`, `a\u{7}b`), and a name over 200 characters cut, with its length.
    ///
    /// ```swift
    /// "Ta\u{0}sk".shownInMessage                        // "Ta\0sk"
    /// String(repeating: "x", count: 10_000).shownInMessage   // "xxx…x… (10000 characters)"
    /// ```
    package var shownInMessage: String {
        let count = unicodeScalars.count
        guard count > 200 else { return escapingControlCharacters() }
        return String(String.UnicodeScalarView(unicodeScalars.prefix(200))).escapingControlCharacters() + "… (\(count) characters)"
    }

    /// The receiver with control characters written as escapes (`\0`, `\u{7}`), so that text from a
    /// file never reaches a terminal raw; the ones in `kept` (by default line feeds and tabs) stay.
    package func escapingControlCharacters(keeping kept: Set<Unicode.Scalar> = ["\n", "\t"]) -> String {
        guard unicodeScalars.contains(where: { ($0.value < 0x20 || $0.value == 0x7F) && !kept.contains($0) }) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case _ where kept.contains(scalar): shown.unicodeScalars.append(scalar)
            case 0: shown += "\\0"
            case 1..<0x20, 0x7F: shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Why the receiver cannot be the name of an entity, property or configuration in a store, or
    /// `nil` when it can. Every other character is safe: names reach SQL only quoted
    /// (``quotedSQLIdentifier``) or bound.
    ///
    /// A name holding U+0000 cannot be passed to SQLite (a statement ends at the first NUL, and a
    /// C string read back stops there), so it would be cut short without a word; an empty name
    /// names nothing.
    package var unusableNameReason: String? {
        if isEmpty { return "is empty" }
        if unicodeScalars.contains("\u{0}") { return "holds a NUL character (U+0000), which SQLite cannot keep in a name" }
        return nil
    }

    /// Why the receiver cannot be part of a file name beside a store (a seed configuration's
    /// store is `<store>.seed-<configuration>`), or `nil` when it can: a `/` would put the file in
    /// another folder, outside the store's own, and `..` names the folder above.
    package var unusableFileNamePartReason: String? {
        if contains("/") { return "holds a '/', and a configuration's name becomes part of a file name beside the store (its seed store)" }
        if contains("..") { return "holds '..', and a configuration's name becomes part of a file name beside the store (its seed store)" }
        return nil
    }
}
