import Foundation
import ObjectModel

/// The value side of ``ValueConversion/numeric``: a change between numeric types and Boolean that
/// Core Data's lightweight migration accepts, carried out only when the value fits exactly.
enum NumericChange {
    /// `value` as a value of type `type`, or why it cannot be carried exactly.
    static func convert(_ value: AttributeValue, to type: AttributeType) -> Result<AttributeValue, ConversionFailure> {
        guard let number = Number(value) else {
            return .failure(ConversionFailure("a \(value.kindName) value is not a number"))
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let whole = number.whole, let range = type.integerRange, range.contains(whole) else {
                return .failure(ConversionFailure("\(number.text) does not fit in \(type.rawValue) exactly"))
            }
            return .success(.integer(whole))
        case .double, .float:
            guard let real = number.real else { return .failure(ConversionFailure("\(number.text) is not a Double exactly")) }
            return .success(.double(real))
        case .decimal:
            return .success(.decimal(number.text))
        case .boolean:
            guard let whole = number.whole, whole == 0 || whole == 1 else {
                return .failure(ConversionFailure("\(number.text) is neither 0 nor 1, so it is no Boolean"))
            }
            return .success(.boolean(whole == 1))
        default:
            return .failure(ConversionFailure("\(type.rawValue) is not a numeric type"))
        }
    }

    /// A number read from an integer, real, decimal text or Boolean value.
    private enum Number {
        case integer(Int64)
        case real(Double)
        case decimal(String, Decimal)

        init?(_ value: AttributeValue) {
            switch value {
            case .integer(let number): self = .integer(number)
            case .boolean(let flag): self = .integer(flag ? 1 : 0)
            case .double(let number) where number.isFinite: self = .real(number)
            case .decimal(let text):
                guard let decimal = Decimal(string: text.trimmingCharacters(in: .whitespaces), locale: Locale(identifier: "en_US_POSIX")) else { return nil }
                self = .decimal(text, decimal)
            default: return nil
            }
        }

        /// The number as a whole number, when it is one that an `Int64` holds.
        var whole: Int64? {
            switch self {
            case .integer(let number): return number
            case .real(let number): return Int64(exactly: number)
            case .decimal(_, let decimal):
                var rounded = Decimal()
                var copy = decimal
                NSDecimalRound(&rounded, &copy, 0, .plain)
                guard rounded == decimal else { return nil }
                return Int64(exactly: NSDecimalNumber(decimal: decimal).doubleValue).flatMap { Decimal($0) == decimal ? $0 : nil }
            }
        }

        /// The number as a `Double`, when it is one exactly.
        var real: Double? {
            switch self {
            case .integer(let number):
                let real = Double(number)
                return Int64(exactly: real) == number ? real : nil
            case .real(let number): return number
            case .decimal(_, let decimal):
                let real = NSDecimalNumber(decimal: decimal).doubleValue
                return Decimal(string: String(real), locale: Locale(identifier: "en_US_POSIX")) == decimal ? real : nil
            }
        }

        /// Decimal digits (the shortest text that reads back as the same number).
        var text: String {
            switch self {
            case .integer(let number): return String(number)
            case .real(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .decimal(let text, _): return text
            }
        }
    }
}
