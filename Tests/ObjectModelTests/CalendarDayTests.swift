import Foundation
import ObjectModel
import Testing

/// Date text naming a day the calendar does not have is refused everywhere storekeep reads dates
/// (model default values, step files, change files, XML property lists): Foundation's
/// `ISO8601DateFormatter` rolls February 30 into March 1.
@Suite struct CalendarDayTests {
    @Test("days per month, leap years by the Gregorian rule")
    func daysPerMonth() {
        #expect((1...12).map { CalendarDay.daysIn(month: $0, year: 2021) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CalendarDay.daysIn(month: 2, year: 2024) == 29)
        #expect(CalendarDay.daysIn(month: 2, year: 1900) == 28)
        #expect(CalendarDay.daysIn(month: 2, year: 2000) == 29)
    }

    @Test("a day past the month's end is refused, not rolled over",
          arguments: ["2020-02-30T00:00:00Z", "2021-02-29T00:00:00Z", "2020-04-31T10:00:00Z", "2020-2-30T00:00:00Z", "2020-13-01T00:00:00Z", "2020-00-10T00:00:00Z"])
    func refused(_ text: String) {
        #expect(CalendarDay.date(iso8601: text) == nil)
    }

    @Test("real days are read as the formatter reads them")
    func read() {
        for text in ["2020-02-29T00:00:00Z", "2021-02-28T23:59:59Z", "2020-12-31T00:00:00+02:00"] {
            #expect(CalendarDay.date(iso8601: text) == ISO8601DateFormatter().date(from: text), "\(text)")
        }
        #expect(CalendarDay.date(iso8601: "2020-02-29", formats: [[.withInternetDateTime], [.withFullDate]]) != nil)
        #expect(CalendarDay.date(iso8601: "2021-02-29", formats: [[.withFullDate]]) == nil)
    }
}
