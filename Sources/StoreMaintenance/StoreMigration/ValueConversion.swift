import Foundation
import ObjectModel

/// How one attribute value becomes a value of the next model version's type.
///
/// `same`, `widen` and `numeric` are inferred (a lightweight step, with Core Data's rules: any
/// change between numeric types and Boolean); the others are named in step files
/// (`convert: string-to-integer`) and are never inferred. A value that a conversion cannot carry
/// exactly is never changed: its record is rejected.
///
/// ```swift
/// ValueConversion.inferred(from: .integer16, to: .integer64)          // .widen
/// ValueConversion.stringToInteger.convert(.string(" 42"), to: .integer16)   // .success(.integer(42))
/// ```
public enum ValueConversion: String, Hashable, Sendable, CaseIterable {
    /// The types are equal: the value is kept.
    case same
    /// A numeric widening (Integer 16 → 32 → 64, Integer → Double or Decimal, Float → Double).
    case widen
    /// Any other change between Integer 16/32/64, Decimal, Double, Float and Boolean, which Core Data's
    /// lightweight migration accepts: each value must fit exactly (an integer in the narrower range, a
    /// whole number for an integer type, 0 or 1 for a Boolean), or its record is rejected.
    case numeric
    /// String → any integer type: the trimmed text must be a whole number that fits.
    case stringToInteger = "string-to-integer"
    /// Any integer type → String (decimal digits).
    case integerToString = "integer-to-string"
    /// String → Double or Float: the trimmed text must be a number.
    case stringToFloatingPoint = "string-to-double"
    /// Double or Float → String.
    case doubleToString = "double-to-string"
    /// Double or Float → any integer type, rounded to the nearest (halves away from zero); it must fit.
    case doubleToInteger = "double-to-integer"
    /// An integer type → a smaller integer type: values that do not fit are rejected.
    case narrowInteger = "narrow-integer"
    /// An integer type → Boolean: 0 is false, anything else true.
    case integerToBoolean = "integer-to-boolean"
    /// Boolean → any integer type (1 or 0).
    case booleanToInteger = "boolean-to-integer"

    /// The conversion a lightweight step infers from `old` to `new`, or `nil` when none is inferred.
    public static func inferred(from old: AttributeType, to new: AttributeType) -> ValueConversion? {
        if old == new { return .same }
        switch (old, new) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64): return .widen
        case (.integer16, .double), (.integer32, .double), (.integer64, .double): return .widen
        case (.integer16, .decimal), (.integer32, .decimal), (.integer64, .decimal): return .widen
        case (.float, .double): return .widen
        default: return isNumericOrBoolean(old) && isNumericOrBoolean(new) ? .numeric : nil
        }
    }

    /// The conversions a step file may name (everything but the inferred `same`, `widen` and `numeric`).
    public static var declarable: [ValueConversion] { allCases.filter { $0 != .same && $0 != .widen && $0 != .numeric } }

    /// The types between which Core Data's inferred mapping accepts a type change.
    private static func isNumericOrBoolean(_ type: AttributeType) -> Bool { type.isNumeric || type == .boolean }

    /// Whether this conversion turns values of type `old` into values of type `new`.
    public func applies(from old: AttributeType, to new: AttributeType) -> Bool {
        switch self {
        case .same: return old == new
        case .widen: return Self.inferred(from: old, to: new) == .widen
        case .numeric: return Self.inferred(from: old, to: new) == .numeric
        case .stringToInteger: return old == .string && new.isInteger
        case .integerToString: return old.isInteger && new == .string
        case .stringToFloatingPoint: return old == .string && (new == .double || new == .float)
        case .doubleToString: return (old == .double || old == .float) && new == .string
        case .doubleToInteger: return (old == .double || old == .float) && new.isInteger
        case .narrowInteger: return old.isInteger && new.isInteger
        case .integerToBoolean: return old.isInteger && new == .boolean
        case .booleanToInteger: return old == .boolean && new.isInteger
        }
    }

    /// Converts one non-empty value to type `new`; the failure says why in a few words. A result
    /// the new type cannot hold exactly (``ObjectModel/ValueFit``) is a failure too: nothing is
    /// rounded or emptied on the way.
    public func convert(_ value: AttributeValue, to new: AttributeType) -> Result<AttributeValue, ConversionFailure> {
        let result = converted(value, to: new)
        if case .success(let converted) = result, let problem = ValueFit.problem(converted, as: new) {
            return .failure(ConversionFailure("\(new.rawValue) cannot hold \(problem)"))
        }
        return result
    }

    private func converted(_ value: AttributeValue, to new: AttributeType) -> Result<AttributeValue, ConversionFailure> {
        if value.isNull { return .success(.null) }
        switch (self, value) {
        case (.same, _):
            return .success(value)
        case (.widen, .integer(let number)):
            switch new {
            case .double:
                guard let exact = ValueFit.exactDouble(number) else { return .failure(ConversionFailure("\(number) has no exact Double: it would be rounded")) }
                return .success(.double(exact))
            case .decimal: return .success(.decimal(String(number)))
            default: return .success(value)
            }
        case (.widen, .double):
            return .success(value)
        case (.numeric, _):
            return NumericChange.convert(value, to: new)
        case (.stringToInteger, .string(let text)):
            guard let number = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                return .failure(ConversionFailure("the text '\(text.prefix(40))' is not a whole number"))
            }
            return fitting(number, into: new)
        case (.integerToString, .integer(let number)):
            return .success(.string(String(number)))
        case (.stringToFloatingPoint, .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let number = Double(trimmed) else {
                return .failure(ConversionFailure("the text '\(text.prefix(40))' is not a number"))
            }
            // A finite number too large for a Double would become infinite: only "inf" itself is.
            if number.isInfinite, !["inf", "infinity"].contains(trimmed.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "+-"))) {
                return .failure(ConversionFailure("the text '\(text.prefix(40))' is beyond the largest Double"))
            }
            return .success(.double(number))
        case (.doubleToString, .double(let number)):
            return .success(.string(String(number)))
        case (.doubleToInteger, .double(let number)):
            let rounded = number.rounded(.toNearestOrAwayFromZero)
            guard rounded.isFinite, rounded >= -9.2e18, rounded <= 9.2e18 else {
                return .failure(ConversionFailure("\(number) is not a number an integer can hold"))
            }
            return fitting(Int64(rounded), into: new)
        case (.narrowInteger, .integer(let number)):
            return fitting(number, into: new)
        case (.integerToBoolean, .integer(let number)):
            return .success(.boolean(number != 0))
        case (.booleanToInteger, .boolean(let flag)):
            return .success(.integer(flag ? 1 : 0))
        default:
            return .failure(ConversionFailure("\(rawValue) cannot convert a \(value.kindName) value"))
        }
    }

    private func fitting(_ number: Int64, into type: AttributeType) -> Result<AttributeValue, ConversionFailure> {
        guard let range = type.integerRange, range.contains(number) else {
            return .failure(ConversionFailure("\(number) does not fit in \(type.rawValue)"))
        }
        return .success(.integer(number))
    }
}
