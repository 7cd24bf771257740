import Foundation
import LegacyFormats
import ObjectModel

/// Converts property-list values to attribute values, refusing what would lose or invent data.
enum PropertyListValueConverter {
    /// The attribute value for `value`, or a reason it cannot become one: a value of another kind,
    /// or one the type cannot hold exactly (``ObjectModel/ValueFit``: NaN, a Float beyond its range,
    /// an integer no Double holds exactly, an infinite date, a decimal that is not one).
    static func convert(_ value: PropertyListValue, to type: AttributeType) -> Result<AttributeValue, ConversionProblem> {
        switch converted(value, to: type) {
        case .success(let result):
            if let problem = ValueFit.problem(result, as: type) { return .failure(.init("\(type.rawValue) cannot hold \(problem)")) }
            return .success(result)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    private static func converted(_ value: PropertyListValue, to type: AttributeType) -> Result<AttributeValue, ConversionProblem> {
        switch (type, value) {
        case (.string, .string(let text)), (.uri, .string(let text)), (.objectID, .string(let text)), (.composite, .string(let text)):
            return .success(type == .uri ? .uri(text) : .string(text))
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { return .failure(.init("'\(text)' is not a UUID")) }
            return .success(.uuid(uuid))
        case (.decimal, .string(let text)):
            return .success(.decimal(text))
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            guard type.integerRange?.contains(number) ?? true else { return .failure(.init("\(number) does not fit \(type.rawValue)")) }
            return .success(.integer(number))
        case (.integer16, .real(let number)), (.integer32, .real(let number)), (.integer64, .real(let number)):
            guard number.rounded() == number, let whole = Int64(exactly: number), type.integerRange?.contains(whole) ?? true else {
                return .failure(.init("\(number) is not a whole number that fits \(type.rawValue)"))
            }
            return .success(.integer(whole))
        case (.integer16, .boolean(let flag)), (.integer32, .boolean(let flag)), (.integer64, .boolean(let flag)):
            return .success(.integer(flag ? 1 : 0))
        case (.double, .real(let number)), (.float, .real(let number)): return .success(.double(number))
        case (.double, .integer(let number)), (.float, .integer(let number)):
            guard let exact = ValueFit.exactDouble(number) else { return .failure(.init("\(number) has no exact \(type.rawValue): it would be rounded")) }
            return .success(.double(exact))
        case (.decimal, .integer(let number)): return .success(.decimal(String(number)))
        case (.decimal, .real(let number)):
            guard number.isFinite else { return .failure(.init("\(number) is no decimal number")) }
            return .success(.decimal(String(number)))
        case (.boolean, .boolean(let flag)): return .success(.boolean(flag))
        case (.boolean, .integer(let number)) where number == 0 || number == 1: return .success(.boolean(number == 1))
        case (.date, .date(let date)): return .success(.date(date))
        case (.binary, .data(let data)), (.transformable, .data(let data)): return .success(.binary(data))
        case (.integer64, .uid(let number)) where number <= UInt64(Int64.max): return .success(.integer(Int64(number)))
        default:
            return .failure(.init("a \(value.typeName)\(preview(value)) cannot become \(type.rawValue)"))
        }
    }

    private static func preview(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return " ('\(text.prefix(40))')"
        case .integer(let number): return " (\(number))"
        case .real(let number): return " (\(number))"
        default: return ""
        }
    }
}

/// Why a value cannot be converted.
struct ConversionProblem: Error {
    /// The reason, naming the value.
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
