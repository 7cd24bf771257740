import Foundation
import GRDB
import ObjectModel

/// Converts attribute values to and from their SQLite form (documented in `docs/format.md`).
///
/// | attribute type | column holds |
/// |---|---|
/// | Integer 16/32/64, Boolean | INTEGER |
/// | Double, Float | REAL |
/// | Date | REAL, seconds since 1970-01-01 UTC |
/// | Decimal, String, URI, Object ID, Composite | TEXT (a decimal as its exact text; a string holding U+0000 as a UTF-8 BLOB) |
/// | UUID | TEXT, uppercase |
/// | Binary, Transformable | BLOB, or TEXT `sha256:<hex>` when kept in a blob file |
enum ValueCoder {
    /// Checks that `value` fits `attribute` and returns the value to store (before blob handling).
    ///
    /// Requiredness and min/max are *not* enforced here (sync must be able to store anything;
    /// `check` reports invalid records); only a value that the type cannot hold exactly is refused
    /// (``refusal(of:type:)`` says why).
    static func normalized(_ value: AttributeValue, for attribute: AttributeDescription) -> AttributeValue? {
        normalized(value, type: attribute.type)
    }

    /// ``normalized(_:for:)`` by the attribute's type alone (the hot paths keep types, not descriptions).
    static func normalized(_ value: AttributeValue, type: AttributeType) -> AttributeValue? {
        guard let converted = converted(value, type: type), ValueFit.problem(converted, as: type) == nil else { return nil }
        return converted
    }

    /// Why ``normalized(_:type:)`` refuses `value` for `type`, as a phrase naming the value
    /// ("NaN (SQLite keeps no NaN: …)", "a string value"), or `nil` when it does not.
    static func refusal(of value: AttributeValue, type: AttributeType) -> String? {
        guard let converted = converted(value, type: type) else {
            switch (type, value) {
            case (.boolean, .integer(let number)): return "\(number) (a Boolean is 0 or 1)"
            case (.double, .integer(let number)), (.float, .integer(let number)):
                return "the integer \(number), which no Double holds exactly"
            case (.decimal, .double(let number)): return "\(number), which is no decimal number"
            case (.decimal, .string(let text)): return ValueFit.decimalProblem(text) ?? "a string value"
            case (.uuid, .string(let text)): return "'\(ValueFit.preview(text))', which is not a UUID"
            default: return "a \(value.kindName) value"
            }
        }
        return ValueFit.problem(converted, as: type)
    }

    /// `value` as the kind of value `type` stores, when it is of that kind or converts to it
    /// without loss; ``ValueFit`` then judges whether the type holds it.
    private static func converted(_ value: AttributeValue, type: AttributeType) -> AttributeValue? {
        switch (type, value) {
        case (_, .null): return .null
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return value
        case (.integer16, .boolean(let flag)), (.integer32, .boolean(let flag)), (.integer64, .boolean(let flag)):
            return .integer(flag ? 1 : 0)
        case (.boolean, .boolean): return value
        case (.boolean, .integer(let number)) where number == 0 || number == 1: return .boolean(number == 1)
        case (.double, .double), (.float, .double): return value
        case (.double, .integer(let number)), (.float, .integer(let number)): return ValueFit.exactDouble(number).map { .double($0) }
        case (.decimal, .decimal): return value
        case (.decimal, .integer(let number)): return .decimal(String(number))
        case (.decimal, .double(let number)) where number.isFinite: return .decimal(String(number))
        case (.decimal, .string(let text)): return .decimal(text)
        case (.string, .string), (.date, .date), (.uuid, .uuid), (.uri, .uri): return value
        case (.uri, .string(let text)): return .uri(text)
        case (.uuid, .string(let text)): return UUID(uuidString: text).map { .uuid($0) }
        case (.objectID, .string), (.objectID, .uri), (.composite, .string): return value
        case (.binary, .binary), (.transformable, .binary): return value
        default: return nil
        }
    }

    /// The SQLite value for a normalized attribute value (binary values stay inline here).
    static func databaseValue(_ value: AttributeValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let number): return number.databaseValue
        case .double(let number): return number.databaseValue
        case .string(let text) where text.utf8.contains(0):
            // TEXT is read back as a C string, which would end at the NUL: keep such text as its UTF-8 bytes.
            return Data(text.utf8).databaseValue
        case .decimal(let text), .string(let text), .uri(let text): return text.databaseValue
        case .boolean(let flag): return (flag ? 1 : 0).databaseValue
        case .date(let date): return date.timeIntervalSince1970.databaseValue
        case .binary(let data): return data.databaseValue
        case .uuid(let uuid): return uuid.uuidString.databaseValue
        }
    }

    /// The attribute value of a column read back; blob references are returned as `.string("sha256:…")`
    /// for the caller to resolve.
    static func attributeValue(_ stored: DatabaseValue, for type: AttributeType) -> AttributeValue {
        switch stored.storage {
        case .null:
            return .null
        case .int64(let number):
            switch type {
            // A Boolean is 0 or 1; anything else stays the integer (which a Boolean attribute refuses).
            case .boolean: return number == 0 || number == 1 ? .boolean(number == 1) : .integer(number)
            // An integer no Double holds exactly stays an integer (which these attributes refuse).
            case .double, .float: return ValueFit.exactDouble(number).map { .double($0) } ?? .integer(number)
            case .date: return ValueFit.exactDouble(number).map { .date(Date(timeIntervalSince1970: $0)) } ?? .integer(number)
            case .decimal: return .decimal(String(number))
            default: return .integer(number)
            }
        case .double(let number):
            switch type {
            case .date: return .date(Date(timeIntervalSince1970: number))
            // A whole number is the integer; anything else stays a double, which an integer
            // attribute refuses (never truncated, and Int64(_:) would stop the process on 1e30).
            case .integer16, .integer32, .integer64: return Int64(exactly: number).map { .integer($0) } ?? .double(number)
            case .decimal: return number.isFinite ? .decimal(String(number)) : .double(number)
            default: return .double(number)
            }
        case .string(let text):
            switch type {
            case .decimal: return .decimal(text)
            case .uuid: return UUID(uuidString: text).map { .uuid($0) } ?? .string(text)
            case .uri: return .uri(text)
            default: return .string(text)
            }
        case .blob(let data):
            switch type {
            // Text holding U+0000 is kept as its UTF-8 bytes; bytes that are not UTF-8 stay bytes
            // (a string attribute refuses them) rather than being decoded with replacement characters.
            case .string, .composite: return String(validating: data, as: UTF8.self).map { .string($0) } ?? .binary(data)
            default: return .binary(data)
            }
        }
    }
}
