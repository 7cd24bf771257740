import Foundation
import ObjectModel
import Testing

/// `AttributeValues` behaves as a dictionary of attribute values: lookups, updates, removal,
/// equality and hashing that ignore order; only iteration keeps the order names were set in.
@Suite struct AttributeValuesTests {
    @Test func setsReplacesAndRemovesByName() {
        var values = AttributeValues()
        #expect(values.isEmpty)
        values["title"] = .string("Keynote")
        values["notes"] = .string("short")        // same length as "title": found by text, not length
        values["duration"] = .double(12)
        #expect(values["title"] == .string("Keynote"))
        #expect(values["notes"] == .string("short"))
        #expect(values["missing"] == nil)
        #expect(values["title "] == nil)
        values["title"] = .string("Closing")
        #expect(values.count == 3)
        #expect(values["title"] == .string("Closing"))
        values["notes"] = nil
        #expect(values.names == ["title", "duration"])
        #expect(values.removeValue(forName: "duration") == .double(12))
        #expect(values.removeValue(forName: "duration") == nil)
        #expect(values.names == ["title"])
        values["absent"] = nil
        #expect(values.count == 1)
    }

    @Test func iteratesInTheOrderNamesWereFirstSet() {
        var values: AttributeValues = ["b": .integer(1), "a": .integer(2)]
        values.append(.integer(3), forNewName: "c")
        values["b"] = .integer(4)
        #expect(values.map(\.name) == ["b", "a", "c"])
        #expect(values.map(\.value) == [.integer(4), .integer(2), .integer(3)])
    }

    @Test func aLiteralNamingTwiceKeepsTheLastValue() {
        let values: AttributeValues = ["a": .integer(1), "a": .integer(2)]
        #expect(values.count == 1)
        #expect(values["a"] == .integer(2))
    }

    @Test func equalityAndHashIgnoreOrder() {
        let one: AttributeValues = ["a": .integer(1), "b": .string("x"), "c": .null]
        let other: AttributeValues = ["c": .null, "b": .string("x"), "a": .integer(1)]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other]).count == 1)
        #expect(one != ["a": .integer(1), "b": .string("x")])
        #expect(one != ["a": .integer(1), "b": .string("y"), "c": .null])
        #expect(one != ["a": .integer(1), "b": .string("x"), "d": .null])
    }

    @Test func convertsToAndFromDictionaries() {
        let dictionary: [String: AttributeValue] = ["z": .boolean(true), "m": .date(Date(timeIntervalSince1970: 5)), "a": .integer(-1)]
        let values = AttributeValues(dictionary)
        #expect(values.names == ["a", "m", "z"])
        #expect(values.dictionary == dictionary)
        #expect(values.description == "[a: \(AttributeValue.integer(-1)), m: \(AttributeValue.date(Date(timeIntervalSince1970: 5))), z: \(AttributeValue.boolean(true))]")
    }

    @Test func longAndNonASCIINamesCompareByText() {
        let long = String(repeating: "attribute", count: 4)
        var values = AttributeValues()
        values[long + "1"] = .integer(1)
        values[long + "2"] = .integer(2)
        values["naïve"] = .integer(3)
        #expect(values[String(repeating: "attribute", count: 4) + "2"] == .integer(2))
        #expect(values["nai\u{308}ve"] == .integer(3), "canonically equal text is the same name, as for a dictionary")
        #expect(values[long] == nil)
        var ascii: AttributeValues = ["K": .integer(4), "ab": .integer(5)]
        #expect(ascii["\u{212A}"] == .integer(4), "KELVIN SIGN is canonically K, though three bytes long")
        ascii["\u{212A}"] = .integer(6)
        #expect(ascii.count == 2)
        #expect(ascii["K"] == .integer(6))
    }
}
