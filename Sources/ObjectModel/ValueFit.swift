/// Whether a value can be kept exactly as an attribute of a type, and why not: the one set of
/// rules every reader (property lists, Core Data stores, older stores) and the store itself apply,
/// so that a value is either carried exactly or its record is rejected, never rounded, clipped or
/// turned into an empty value on the way.
///
/// ```swift
/// ValueFit.problem(.integer(70_000), as: .integer16)   // "70000, outside Integer 16's -32768…32767"
/// ValueFit.problem(.double(.nan), as: .double)         // "NaN (SQLite keeps no NaN: it would become an empty value)"
/// ValueFit.decimalProblem("12abc")                      // "'12abc', which is not a decimal number"
/// ValueFit.exactDouble(9_007_199_254_740_993)           // nil: no Double holds it exactly
/// ```
public enum ValueFit {
    /// The most significant digits a Decimal holds (Foundation's `Decimal`: a 128-bit mantissa).
    public static let decimalDigits = 38
    /// The exponents a Decimal holds (Foundation's `Decimal`).
    public static let decimalExponents = -128...127

    /// Why `value`, already of the kind `type` stores (``AttributeValue/integer(_:)`` for the
    /// integer types, ``AttributeValue/double(_:)`` for Double and Float, …), cannot be kept exactly
    /// as `type`, as a phrase naming the value ("70000, outside Integer 16's -32768…32767"); `nil`
    /// when it can. Values of another kind are not judged here.
    public static func problem(_ value: AttributeValue, as type: AttributeType) -> String? {
        switch (value, type) {
        case (.integer(let number), .integer16), (.integer(let number), .integer32):
            guard let range = type.integerRange, !range.contains(number) else { return nil }
            return "\(number), outside \(type.rawValue)'s \(range.lowerBound)…\(range.upperBound)"
        case (.double(let number), .double), (.double(let number), .float):
            if number.isNaN { return "NaN (SQLite keeps no NaN: it would become an empty value)" }
            if type == .float, number.isFinite, abs(number) > Double(Float.greatestFiniteMagnitude) {
                return "\(number), beyond the largest Float (\(Float.greatestFiniteMagnitude))"
            }
            return nil
        case (.date(let date), .date):
            let seconds = date.timeIntervalSinceReferenceDate
            return seconds.isFinite ? nil : "a date of \(seconds) seconds, which is no point in time"
        case (.decimal(let text), .decimal):
            return decimalProblem(text)
        default:
            return nil
        }
    }

    /// The Double equal to `integer`, or `nil` when no Double is (beyond ±2^53 most integers fall
    /// between two Doubles and would be rounded).
    public static func exactDouble(_ integer: Int64) -> Double? {
        Double(exactly: integer)
    }

    /// Why `text` is not a decimal number a Decimal holds exactly (digits with an optional sign,
    /// point and exponent; at most ``decimalDigits`` significant digits; an exponent in
    /// ``decimalExponents``), or `nil` when it is.
    public static func decimalProblem(_ text: String) -> String? {
        guard let parsed = DecimalText(text) else { return "'\(preview(text))', which is not a decimal number" }
        if parsed.significantDigits > decimalDigits {
            return "'\(preview(text))', which has \(parsed.significantDigits) significant digits (a Decimal holds \(decimalDigits))"
        }
        guard parsed.significantDigits == 0 || decimalExponents.contains(parsed.exponent) else {
            return "'\(preview(text))', whose magnitude is beyond what a Decimal holds"
        }
        return nil
    }

    /// At most 40 characters of `text`, with "…" when there were more: for messages.
    public static func preview(_ text: String) -> String {
        text.count > 40 ? text.prefix(40) + "…" : text
    }
}

/// A decimal number written as text, split into what decides whether a Decimal holds it.
private struct DecimalText {
    /// The digits without leading and trailing zeros (0 for zero).
    var significantDigits = 0
    /// The power of ten of the last significant digit.
    var exponent = 0

    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var writtenExponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var negative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let digits = bytes.prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            bytes = bytes.dropFirst(digits.count)
            // A longer exponent is far outside every range (and would overflow): it is clamped.
            let trimmed = digits.drop { $0 == UInt8(ascii: "0") }
            let value = trimmed.count > 9 ? 1_000_000_000 : trimmed.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            writtenExponent = negative ? -value : value
        }
        guard bytes.isEmpty else { return nil }
        let digits = Array(whole) + Array(fraction)
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }),
              let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return }
        significantDigits = last - first + 1
        // The last significant digit stands at 10^(digits after it within the whole part, or minus its place in the fraction).
        exponent = writtenExponent + (whole.count - 1 - last)
    }
}
