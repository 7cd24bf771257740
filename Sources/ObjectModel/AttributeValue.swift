import Foundation

/// One attribute value of a record, independent of where it is stored.
///
/// Dates are absolute instants; binary values are the full bytes even when the store keeps them
/// in an external file. Decimals keep their exact decimal text.
///
/// ```swift
/// let values: [String: AttributeValue] = ["title": .string("Keynote"), "duration": .double(312.5)]
/// ```
public enum AttributeValue: Hashable, Sendable, Codable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(String)
    case string(String)
    case boolean(Bool)
    case date(Date)
    case binary(Data)
    case uuid(UUID)
    case uri(String)

    /// Whether this is ``AttributeValue/null``.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A short, stable name of the case, used in messages ("string", "integer", ...).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .integer: return "integer"
        case .double: return "double"
        case .decimal: return "decimal"
        case .string: return "string"
        case .boolean: return "boolean"
        case .date: return "date"
        case .binary: return "binary"
        case .uuid: return "uuid"
        case .uri: return "uri"
        }
    }
}
