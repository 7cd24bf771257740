/// A value expression of an Xcode mapping model, as `NSExpression` archives it: what storekeep
/// reads of the forms real apps use.
///
/// ```swift
/// let expression = MappingExpression.keyPath(base: .variable("source"), path: ["continent", "numericISO3166Code"])
/// expression.text          // "$source.continent.numericISO3166Code"
/// expression.sourceKeyPath // ["continent", "numericISO3166Code"]
/// ```
public indirect enum MappingExpression: Hashable, Sendable {
    /// A constant value.
    public enum Constant: Hashable, Sendable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        /// Seconds since 2001-01-01 (how `NSDate` is archived).
        case date(Double)
        case null
    }

    /// A constant (`"text"`, `12`, `nil`).
    case constant(Constant)
    /// A variable: `$source`, `$manager`, `$entityPolicy`, `$destination`, … (named without the `$`).
    case variable(String)
    /// A key path from `base` (`nil`: the evaluated object): `$source.a.b`.
    case keyPath(base: MappingExpression?, path: [String])
    /// A method call: `FUNCTION(target, "selector", arguments…)`; `target` is `nil` for Foundation's
    /// built-in functions (`lowercase:(x)`, `now()`).
    case function(target: MappingExpression?, selector: String, arguments: [MappingExpression])
    /// An expression of a kind storekeep does not read, described in a few words.
    case unsupported(String)

    /// The key path from `$source` (`["a", "b"]` for `$source.a.b`), or `nil` for any other expression.
    public var sourceKeyPath: [String]? {
        if case .keyPath(let base?, let path) = self, case .variable("source") = base { return path }
        if case .variable("source") = self { return [] }
        return nil
    }

    /// The expression in `NSExpression`'s format, for messages.
    public var text: String {
        switch self {
        case .constant(let constant):
            switch constant {
            case .string(let value): return "\"\(value)\""
            case .integer(let value): return String(value)
            case .real(let value): return String(value)
            case .boolean(let value): return value ? "YES" : "NO"
            case .date(let value): return "CAST(\(value), \"NSDate\")"
            case .null: return "nil"
            }
        case .variable(let name):
            return "$" + name
        case .keyPath(let base, let path):
            let prefix = base.map { $0.text + "." } ?? ""
            return prefix + path.joined(separator: ".")
        case .function(let target?, let selector, let arguments):
            return "FUNCTION(" + ([target.text, "\"\(selector)\""] + arguments.map(\.text)).joined(separator: ", ") + ")"
        case .function(nil, let selector, let arguments):
            return selector + "(" + arguments.map(\.text).joined(separator: ", ") + ")"
        case .unsupported(let words):
            return "<\(words)>"
        }
    }
}
