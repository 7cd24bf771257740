import Foundation
import GRDB

/// The SQLite function `sk_pattern_mismatch(pattern, value)` record tests use for regular
/// expressions (``RecordTest/failsPattern(_:pattern:entities:)``): 1 when `value` is text that the
/// whole pattern does not match (Core Data's `MATCHES`), else 0.
///
/// Compiled expressions are cached per pattern; the function is registered on an inspection's
/// connection only (``StoreInspector/inspect(_:)``), so the store file is never touched by it.
final class PatternMatcher: @unchecked Sendable {
    /// The SQL name of the function.
    static let functionName = "sk_pattern_mismatch"

    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    /// Whether `pattern` compiles (a rule with a pattern that does not is left out).
    static func isValid(_ pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: anchored(pattern))) != nil
    }

    /// The function to register with `db.add(function:)`.
    var function: DatabaseFunction {
        DatabaseFunction(Self.functionName, argumentCount: 2, pure: true) { [self] values in
            guard let pattern = String.fromDatabaseValue(values[0]), let text = String.fromDatabaseValue(values[1]) else { return 0 }
            return mismatches(text, pattern: pattern) ? 1 : 0
        }
    }

    /// Whether `text` fails the whole-string match of `pattern`.
    func mismatches(_ text: String, pattern: String) -> Bool {
        guard let expression = expression(for: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [], range: range) == nil
    }

    private func expression(for pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        guard let made = try? NSRegularExpression(pattern: Self.anchored(pattern)) else { return nil }
        compiled[pattern] = made
        return made
    }

    private static func anchored(_ pattern: String) -> String { "\\A(?:\(pattern))\\z" }
}
