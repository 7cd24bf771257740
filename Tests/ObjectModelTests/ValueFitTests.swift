import Foundation
import ObjectModel
import Testing

/// The rules by which a value is carried exactly or refused.
@Suite struct ValueFitTests {
    @Test("integers out of their type's range, NaN, Floats beyond range and infinite dates are refused")
    func rangesAndSpecialValues() {
        #expect(ValueFit.problem(.integer(32_767), as: .integer16) == nil)
        #expect(ValueFit.problem(.integer(32_768), as: .integer16) == "32768, outside Integer 16's -32768…32767")
        #expect(ValueFit.problem(.integer(-2_147_483_649), as: .integer32) != nil)
        #expect(ValueFit.problem(.integer(.max), as: .integer64) == nil)
        #expect(ValueFit.problem(.double(.nan), as: .double)?.hasPrefix("NaN") == true)
        #expect(ValueFit.problem(.double(.nan), as: .float) != nil)
        #expect(ValueFit.problem(.double(.infinity), as: .double) == nil, "SQLite keeps an infinity: it is carried")
        #expect(ValueFit.problem(.double(1e300), as: .float) != nil)
        #expect(ValueFit.problem(.double(1e300), as: .double) == nil)
        #expect(ValueFit.problem(.double(-.infinity), as: .float) == nil)
        #expect(ValueFit.problem(.date(Date(timeIntervalSinceReferenceDate: .infinity)), as: .date) != nil)
        #expect(ValueFit.problem(.date(Date(timeIntervalSinceReferenceDate: -2_848_789_424)), as: .date) == nil)
        #expect(ValueFit.exactDouble(1 << 53) == 9_007_199_254_740_992)
        #expect(ValueFit.exactDouble((1 << 53) + 1) == nil)
    }

    @Test("a decimal is digits with an optional sign, point and exponent that a Decimal holds")
    func decimals() {
        for text in ["0", "-12.25", "+7", ".5", "5.", "1e-05", "1E+20", "00012.500", "123456789012345678901234567890.12345678", "1e127", "0e999999999999"] {
            #expect(ValueFit.decimalProblem(text) == nil, "\(text)")
        }
        for text in ["", "abc", "12abc", "1e", "--1", "1.2.3", " 1", "nan", "inf", "0x10", "1e128", "1e-200",
                     "1.234567890123456789012345678901234567890", "1e99999999999999999999"] {
            #expect(ValueFit.decimalProblem(text) != nil, "\(text)")
        }
    }
}
