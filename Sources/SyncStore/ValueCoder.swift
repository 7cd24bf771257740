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
    /// `check` reports invalid records); only a value of the wrong kind is refused.
    static func normalized(_ value: AttributeValue, for attribute: AttributeDescription) -> AttributeValue? {
        normalized(value, type: attribute.type)
    }

    /// ``normalized(_:for:)`` by the attribute's type alone (the hot paths keep types, not descriptions).
    static func normalized(_ value: AttributeValue, type: AttributeType) -> AttributeValue? {
        switch (type, value) {
        case (_, .null): return .null
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return value
        case (.integer16, .boolean(let flag)), (.integer32, .boolean(let flag)), (.integer64, .boolean(let flag)):
            return .integer(flag ? 1 : 0)
        case (.boolean, .boolean): return value
        case (.boolean, .integer(let number)): return .boolean(number != 0)
        case (.double, .double), (.float, .double): return value
        case (.double, .integer(let number)), (.float, .integer(let number)): return .double(Double(number))
        case (.decimal, .decimal): return value
        case (.decimal, .integer(let number)): return .decimal(String(number))
        case (.decimal, .double(let number)): return .decimal(String(number))
        case (.decimal, .string(let text)) where Decimal(string: text) != nil: return .decimal(text)
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
            case .boolean: return .boolean(number != 0)
            case .double, .float: return .double(Double(number))
            case .date: return .date(Date(timeIntervalSince1970: Double(number)))
            case .decimal: return .decimal(String(number))
            default: return .integer(number)
            }
        case .double(let number):
            switch type {
            case .date: return .date(Date(timeIntervalSince1970: number))
            case .integer16, .integer32, .integer64:
                // Only a whole number an Int64 holds becomes an integer; anything else (a store written
                // around storekeep) is carried as the real it is, never truncated, never a trap.
                guard let whole = Int64(exactly: number) else { return .double(number) }
                return .integer(whole)
            case .decimal: return .decimal(String(number))
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
            case .string, .composite: return .string(String(decoding: data, as: UTF8.self))
            default: return .binary(data)
            }
        }
    }
}
