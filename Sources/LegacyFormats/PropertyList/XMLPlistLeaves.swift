import Foundation
import ObjectModel

extension XMLPlistScanner {
    /// Replaces the five XML entities and numeric character references in `bytes`.
    func decodeEntities(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
        let hasEntity = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { memchr($0, 0x26, buffer.count) != nil } ?? false
        }
        guard hasEntity else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x26 else {
                out.append(byte)
                index += 1
                continue
            }
            guard let semicolon = bytes[index...].prefix(12).firstIndex(of: 0x3B) else {
                throw failure("'&' does not start an entity (write '&' in text as &amp;)")
            }
            let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            switch name {
            case "amp": out.append(0x26)
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                guard let scalar = Self.characterReference(name) else {
                    throw failure("unknown entity &\(name); (write '&' in text as &amp;)")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = semicolon + 1
        }
        return out
    }

    private static func characterReference(_ name: String) -> Unicode.Scalar? {
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            code = UInt32(digits.dropFirst(), radix: 16)
        } else {
            code = UInt32(digits, radix: 10)
        }
        return code.flatMap(Unicode.Scalar.init)
    }

    /// Parses the text of a leaf element as the value it holds.
    func leafValue(_ tag: PlistTag, _ text: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        switch tag {
        case .string:
            guard let string = Self.utf8String(text) else {
                throw failure("the text of a <string> is not valid UTF-8")
            }
            return .string(string)
        case .integer:
            guard let value = Self.integer(Self.trimmed(text)) else {
                if Self.isWholeNumber(Self.trimmed(text)) {
                    throw outOfRange("<integer> holds \(Self.quoted(text))")
                }
                throw failure("<integer> holds \(Self.quoted(text)), not a whole number")
            }
            return .integer(value)
        case .real:
            guard let value = Self.real(Self.trimmed(text)) else {
                throw failure("<real> holds \(Self.quoted(text)), not a number")
            }
            return .real(value)
        case .date:
            guard let value = Self.date(Self.trimmed(text)) else {
                throw failure("<date> holds \(Self.quoted(text)), not a date written as YYYY-MM-DDTHH:MM:SSZ on a day the calendar has")
            }
            return .date(value)
        case .data:
            guard let value = Base64Text.decode(text) else {
                throw failure("<data> does not hold valid base64 (whole groups of four characters, '=' only as the last one's padding)")
            }
            return .data(value)
        case .true, .false:
            guard Self.trimmed(text).isEmpty else { throw failure("<\(tag.name)> must be empty") }
            return .boolean(tag == .true)
        case .plist, .dict, .key, .array:
            throw failure("<\(tag.name)> is not a leaf element")
        }
    }

    /// `bytes` as a string, or `nil` when they are not valid UTF-8; text that is all ASCII (most
    /// of it) is taken without the general validation.
    static func utf8String(_ bytes: [UInt8]) -> String? {
        let isASCII = bytes.withUnsafeBufferPointer { buffer in
            var combined: UInt8 = 0
            for byte in buffer { combined |= byte }
            return combined < 0x80
        }
        return isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    private static func trimmed(_ text: [UInt8]) -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return [] }
        return text[first...last]
    }

    private static func quoted(_ text: [UInt8]) -> String {
        "'" + String(decoding: trimmed(text).prefix(40), as: UTF8.self) + "'"
    }

    /// Whether `text` is written as a whole number (decimal, or `0x` hexadecimal, with a sign),
    /// whatever its size.
    static func isWholeNumber(_ text: ArraySlice<UInt8>) -> Bool {
        var digits = text
        if let sign = digits.first, sign == 0x2D || sign == 0x2B { digits = digits.dropFirst() }
        if digits.count > 2, digits.first == 0x30, digits[digits.startIndex + 1] | 0x20 == 0x78 {
            digits = digits.dropFirst(2)
            return !digits.isEmpty && digits.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }
        }
        return !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A decimal or `0x` hexadecimal integer, or `nil` when the text is not one or its value lies
    /// outside `Int64` (never another value in its place).
    static func integer(_ text: ArraySlice<UInt8>) -> Int64? {
        var digits = text
        var negative = false
        if let sign = digits.first, sign == 0x2D || sign == 0x2B {
            negative = sign == 0x2D
            digits = digits.dropFirst()
        }
        var radix: UInt64 = 10
        if digits.count > 2, digits.first == 0x30,
           digits[digits.startIndex + 1] | 0x20 == 0x78 {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt64(byte - 0x41 + 10)
            default: return nil
            }
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }

    static func real(_ text: ArraySlice<UInt8>) -> Double? {
        let string = String(decoding: text, as: UTF8.self)
        if let value = Double(string) { return value }
        switch string.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, in UTC.
    static func date(_ text: ArraySlice<UInt8>) -> Date? {
        let bytes = Array(text)
        guard bytes.count >= 20, bytes.last == 0x5A else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                // A fraction of many digits (from a file, any length) must not overflow: refused instead.
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, shifted <= Int.max - 9 else { return nil }
                value = shifted + Int(byte - 0x30)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, character) in separators where bytes[index] != character.asciiValue { return nil }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...CalendarDay.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            // Every digit is checked; the first 15 (beyond a Double's precision of a second's
            // fraction) give the value, so that a long run of digits cannot overflow.
            let count = bytes.count - 21
            guard bytes[19] == 0x2E, count > 0, bytes[20..<(bytes.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let digits = number(20, min(count, 15)) else { return nil }
            fraction = Double(digits) / pow(10, Double(min(count, 15)))
        }
        let days = daysSinceReferenceDate(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// Days from 2001-01-01 to the given day of the proleptic Gregorian calendar.
    private static func daysSinceReferenceDate(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysSince1970 = era * 146_097 + dayOfEra - 719_468
        return daysSince1970 - 11_323
    }
}
