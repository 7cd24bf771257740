/// The type of an attribute, as Xcode's data model editor names it.
///
/// The raw value is the exact `attributeType` string of a `.xcdatamodel/contents` file, so a
/// model read from disk and a model written back use the same words:
///
/// ```swift
/// AttributeType(rawValue: "Integer 16") == .integer16
/// ```
public enum AttributeType: String, Codable, Sendable, CaseIterable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case transformable = "Transformable"
    case uuid = "UUID"
    case uri = "URI"
    case objectID = "ObjectID"
    case composite = "Composite"
    /// No type given (Xcode writes no `attributeType` for some transient attributes).
    case undefined = "Undefined"

    /// Whether values of this type are whole numbers.
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: return true
        default: return false
        }
    }

    /// Whether values of this type are numbers of any kind.
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: return true
        default: return false
        }
    }

    /// Whether values of this type are opaque bytes (candidates for external storage).
    public var isBinary: Bool { self == .binary || self == .transformable }

    /// The inclusive range an integer type can hold, or `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}
