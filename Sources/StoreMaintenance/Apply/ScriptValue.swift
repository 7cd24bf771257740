import Foundation
import ObjectModel

/// Turns a JSON value of a change file into an attribute value of the attribute's type, exactly or
/// not at all (`docs/cli.md`, "apply": how each type is written).
enum ScriptValue {
    /// The value, or why it does not fit.
    static func convert(_ json: JSONValue, to type: AttributeType) -> Result<AttributeValue, Mismatch> {
        if json == .null { return .success(.null) }
        switch (type, json) {
        case (.integer16, .integer(let number)):
            return Int16(exactly: number) != nil ? .success(.integer(number)) : .failure(Mismatch(reason: "\(number) does not fit in a 16-bit integer"))
        case (.integer32, .integer(let number)):
            return Int32(exactly: number) != nil ? .success(.integer(number)) : .failure(Mismatch(reason: "\(number) does not fit in a 32-bit integer"))
        case (.integer64, .integer(let number)):
            return .success(.integer(number))
        case (.boolean, .bool(let flag)):
            return .success(.boolean(flag))
        case (.double, .integer(let number)), (.float, .integer(let number)):
            return Double(exactly: number).map { .success(.double($0)) } ?? .failure(Mismatch(reason: "\(number) cannot be held exactly by a double"))
        case (.double, .number(let number)), (.float, .number(let number)):
            return .success(.double(number))
        case (.double, .string(let text)), (.float, .string(let text)):
            switch text {
            case "nan": return .success(.double(.nan))
            case "inf", "+inf": return .success(.double(.infinity))
            case "-inf": return .success(.double(-.infinity))
            default: return .failure(Mismatch(reason: "a double is a number, or \"nan\", \"inf\", \"-inf\""))
            }
        case (.date, .integer(let seconds)):
            return .success(.date(Date(timeIntervalSince1970: Double(seconds))))
        case (.date, .number(let seconds)):
            return .success(.date(Date(timeIntervalSince1970: seconds)))
        case (.date, .string(let text)):
            return date(text).map { .success(.date($0)) } ?? .failure(Mismatch(reason: "\"\(text)\" is not an ISO 8601 date (2026-11-25T10:00:00Z)"))
        case (.decimal, .string(let text)):
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil && text.allSatisfy({ "+-0123456789.eE".contains($0) })
                ? .success(.decimal(text)) : .failure(Mismatch(reason: "\"\(text)\" is not a decimal number"))
        case (.decimal, .integer(let number)):
            return .success(.decimal(String(number)))
        case (.string, .string(let text)), (.objectID, .string(let text)), (.composite, .string(let text)), (.undefined, .string(let text)):
            return .success(.string(text))
        case (.uuid, .string(let text)):
            return UUID(uuidString: text).map { .success(.uuid($0)) } ?? .failure(Mismatch(reason: "\"\(text)\" is not a UUID"))
        case (.uri, .string(let text)):
            return .success(.uri(text))
        case (.binary, .string(let text)), (.transformable, .string(let text)):
            return Data(base64Encoded: text).map { .success(.binary($0)) } ?? .failure(Mismatch(reason: "binary values are written in base64"))
        case (.binary, .object(let fields)), (.transformable, .object(let fields)):
            guard case .string(let text)? = fields["base64"], let data = Data(base64Encoded: text) else {
                return .failure(Mismatch(reason: "binary values are written in base64, as a string or {\"base64\": …}"))
            }
            return .success(.binary(data))
        default:
            return .failure(Mismatch(reason: "an attribute of type \(type.rawValue) cannot hold \(json.typeName)"))
        }
    }

    /// Why a value does not fit.
    struct Mismatch: Error {
        let reason: String
    }

    private static func date(_ text: String) -> Date? {
        CalendarDay.date(iso8601: text, formats: [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]])
    }
}
