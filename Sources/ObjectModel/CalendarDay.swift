import Foundation

/// Days of the proleptic Gregorian calendar, to refuse date text naming a day that does not
/// exist (February 30, April 31) rather than roll it into the next month as Foundation's
/// `ISO8601DateFormatter` does.
///
/// ```swift
/// CalendarDay.daysIn(month: 2, year: 2024)              // 29
/// CalendarDay.date(iso8601: "2020-02-30T00:00:00Z")     // nil, not March 1
/// CalendarDay.date(iso8601: "2020-02-29T00:00:00Z")     // 2020-02-29 00:00:00 +0000
/// ```
public enum CalendarDay {
    /// How many days `month` (1–12) has in `year`: 29 in February of a leap year (every fourth
    /// year, but not every hundredth, yet every four-hundredth).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether the `YYYY-MM-DD` that ISO 8601 text starts with (month and day of one or two
    /// digits, as the formatter also reads them) names a day of the calendar; `false` when the
    /// text does not start with one.
    public static func startsWithRealDay(_ text: String) -> Bool {
        let parts = text.utf8.prefix(10).split(separator: UInt8(ascii: "-"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return false }
        func number(_ digits: Substring.UTF8View, upTo count: Int) -> Int? {
            guard (1...count).contains(digits.count),
                  digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        // The day may be followed by `T…`: only its leading digits count.
        let dayDigits = parts[2].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard parts[0].count == 4, let year = number(parts[0], upTo: 4),
              let month = number(parts[1], upTo: 2), (1...12).contains(month),
              let day = number(dayDigits, upTo: 2) else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// The date ISO 8601 `text` gives under the first of `formats` that reads it, or `nil` when
    /// none does or the text names a day the calendar does not have.
    public static func date(iso8601 text: String, formats: [ISO8601DateFormatter.Options] = [.withInternetDateTime]) -> Date? {
        guard startsWithRealDay(text) else { return nil }
        let formatter = ISO8601DateFormatter()
        for format in formats {
            formatter.formatOptions = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
