import Foundation

/// One value read from a property list, fully materialised.
///
/// Binary and XML property lists give the same values for the same content:
///
/// ```swift
/// let settings = try document.value(atKeyPath: "settings")
/// if case .string(let name)? = settings?[key: "name"] { print(name) }
/// ```
public enum PropertyListValue: Hashable, Sendable {
    /// A `<string>` (or an ASCII / UTF-16 string object in a binary plist).
    case string(String)
    /// An `<integer>`. Integers above `Int64.max` (up to `UInt64.max`) keep their 64-bit pattern.
    case integer(Int64)
    /// A `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// A `<date>`.
    case date(Date)
    /// A `<data>` block (base64 in XML).
    case data(Data)
    /// A keyed-archiver UID (binary plists only).
    case uid(UInt64)
    /// An `<array>` (a binary set is read as an array too).
    case array([PropertyListValue])
    /// A `<dict>`.
    case dictionary([String: PropertyListValue])

    /// The value stored under `key` when this is a dictionary; `nil` otherwise or when absent.
    public subscript(key key: String) -> PropertyListValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    /// The name of the value's type as operators see it: "string", "integer", "real", "boolean",
    /// "date", "data", "uid", "array" or "dictionary".
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .boolean: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .uid: return "uid"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }

    /// The number of elements of an array or entries of a dictionary; `nil` for other values.
    public var count: Int? {
        switch self {
        case .array(let elements): return elements.count
        case .dictionary(let entries): return entries.count
        default: return nil
        }
    }
}

extension PropertyListValue {
    /// A number, date, Boolean, UID or string of at most 256 UTF-8 bytes: cheap to keep in a cache
    /// of shared values (data and containers are not kept).
    var isSmallScalar: Bool {
        switch self {
        case .integer, .real, .boolean, .date, .uid: return true
        case .string(let text): return text.utf8.count <= 256
        case .data, .array, .dictionary: return false
        }
    }
}
