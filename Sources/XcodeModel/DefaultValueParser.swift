import Foundation
import ObjectModel

/// Turns a `defaultValueString` into a value of the attribute's type, leniently.
///
/// Real models keep defaults left over from an earlier type ("0.0" on an integer, "NO" on an
/// integer), so whole-valued reals and YES/NO are accepted for numbers, and numbers for booleans.
/// Text that still makes no sense gives `nil`; the caller keeps the original string.
enum DefaultValueParser {
    static func value(of text: String, as type: AttributeType) -> AttributeValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let number = integer(trimmed), let range = type.integerRange, range.contains(number) else { return nil }
            return .integer(number)
        case .double, .float:
            return real(trimmed).map(AttributeValue.double)
        case .decimal:
            if let flag = boolean(trimmed) { return .decimal(flag ? "1" : "0") }
            guard let number = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")),
                  Double(trimmed) != nil else { return nil }
            return .decimal(number.description)
        case .string:
            return .string(text)
        case .boolean:
            if let flag = boolean(trimmed) { return .boolean(flag) }
            return real(trimmed).map { .boolean($0 != 0) }
        case .date:
            return date(trimmed).map(AttributeValue.date)
        case .uuid:
            return UUID(uuidString: trimmed).map(AttributeValue.uuid)
        case .uri:
            return trimmed.isEmpty ? nil : .uri(trimmed)
        case .binary, .transformable, .objectID, .composite, .undefined:
            return nil
        }
    }

    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default: return nil
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if let exact = Int64(text) { return exact }
        if let flag = boolean(text) { return flag ? 1 : 0 }
        // Text such as `1.5e3` or `100.0`: taken only when it is that whole number exactly (not
        // `12345678901234567.0`, which a Double rounds, nor `0.99999999999999999999`).
        guard let number = Double(text), number.isFinite, number.rounded() == number,
              abs(number) <= 9_007_199_254_740_992, let exact = Decimal(string: text),
              exact == Decimal(Int64(number)) else { return nil }
        return Int64(number)
    }

    private static func real(_ text: String) -> Double? {
        if let flag = boolean(text) { return flag ? 1 : 0 }
        guard let number = Double(text), number.isFinite else { return nil }
        return number
    }

    /// Seconds since 2001-01-01 (how Core Data stores dates), or ISO 8601 text.
    private static func date(_ text: String) -> Date? {
        if let seconds = Double(text), seconds.isFinite { return Date(timeIntervalSinceReferenceDate: seconds) }
        return CalendarDay.date(iso8601: text, formats: [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ])
    }
}
