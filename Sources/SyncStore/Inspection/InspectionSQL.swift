import Foundation
import ObjectModel

/// Small pieces of SQL text the inspection queries assemble: literals and lists of literals.
///
/// Queries inline model-derived constants (entity names, bounds, patterns) as literals, so that one
/// statement carries each condition twice (as a flag and in `WHERE`) without positional arguments
/// to keep in step.
enum InspectionSQL {
    /// A string literal: `'it''s'` (``Swift/String/quotedSQLLiteral``: a NUL is joined in as `char(0)`).
    static func literal(_ text: String) -> String { text.quotedSQLLiteral }

    /// A parenthesised list of string literals: `('Book', 'Film')`; `(NULL)` when empty (matches nothing).
    static func list(_ texts: [String]) -> String {
        texts.isEmpty ? "(NULL)" : "(" + texts.sorted().map(literal).joined(separator: ", ") + ")"
    }

    /// A number literal, or `nil` for NaN and infinities.
    static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A quoted identifier: `"e_Speech"`.
    static func identifier(_ name: String) -> String { name.quotedSQLIdentifier }
}
