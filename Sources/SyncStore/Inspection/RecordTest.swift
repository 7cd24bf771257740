import ObjectModel

/// One condition a record may break, checked over the records of one entity table by
/// ``StoreInspection/forEachRecord(failing:in:_:)`` in a single scan.
///
/// Each test is made for stored properties of the store's layout (``StoredProperty``) and for a
/// list of entities (an entity and its sub-entities); the store turns it into SQL over its own
/// table. A factory returns `nil` for a test that cannot fail (no bound, a pattern that does not
/// compile, a type the store accepts any value for).
///
/// ```swift
/// var tests = [RecordTest.entity(notIn: ["Speech"])]
/// if let title = layout.storage(of: "title", of: "Speech") {
///     tests.append(.isEmpty(title, entities: ["Speech"]))
///     tests += [RecordTest.outOfRange(title, type: .string, below: 1, above: 200, entities: ["Speech"])].compactMap { $0 }
/// }
/// ```
public struct RecordTest: Hashable, Sendable {
    /// The SQL condition over the table's columns, true for a record that breaks the test.
    let condition: String
    /// The SQL expression whose value a match reports, if any.
    let value: String?

    /// Whether a match reports a value for this test (``RecordTestMatch/value(of:)``).
    public var reportsValue: Bool { value != nil }

    /// Records whose exact entity is none of `entities` (a table holds only its family's concrete
    /// entities); the value reported is the record's entity.
    public static func entity(notIn entities: [String]) -> RecordTest {
        RecordTest(condition: "_entity NOT IN \(InspectionSQL.list(entities))", value: "_entity")
    }

    /// Records of `entities` whose `property` (an attribute or a to-one relationship) is empty.
    public static func isEmpty(_ property: StoredProperty, entities: [String]) -> RecordTest {
        RecordTest(condition: "_entity IN \(InspectionSQL.list(entities)) AND \(InspectionSQL.identifier(property.column)) IS NULL", value: nil)
    }

    /// Records of `entities` whose attribute `property`, of type `type`, holds a value of a kind the
    /// store never writes for that type (text in an integer column); the value is reported.
    /// `nil` for a type that accepts any value.
    public static func holdsOtherKind(_ property: StoredProperty, type: AttributeType, entities: [String]) -> RecordTest? {
        guard let kinds = storedKinds(of: type) else { return nil }
        let c = InspectionSQL.identifier(property.column)
        return RecordTest(condition: "_entity IN \(InspectionSQL.list(entities)) AND \(c) IS NOT NULL AND typeof(\(c)) NOT IN \(InspectionSQL.list(kinds.map(\.rawValue)))",
                          value: c)
    }

    /// Records of `entities` whose attribute `property`, of type `type`, is below `minimum` or above
    /// `maximum`, given as the store keeps values (dates in seconds since 1970): numbers and dates
    /// by value, strings by length (the value reported is the length), integers only when stored
    /// as integers. `nil` when no bound is finite or the type has no order.
    public static func outOfRange(_ property: StoredProperty, type: AttributeType, below minimum: Double?, above maximum: Double?,
                                  entities: [String]) -> RecordTest? {
        let c = InspectionSQL.identifier(property.column)
        let measured: String
        switch type {
        case .integer16, .integer32, .integer64: measured = "CASE WHEN typeof(\(c)) = 'integer' THEN \(c) END"
        case .double, .float, .decimal: measured = "CASE WHEN typeof(\(c)) IN ('integer', 'real', 'text') THEN CAST(\(c) AS REAL) END"
        case .date: measured = "CASE WHEN typeof(\(c)) IN ('integer', 'real') THEN \(c) END"
        case .string: measured = "CASE WHEN typeof(\(c)) = 'text' THEN length(\(c)) END"
        default: return nil
        }
        var bounds: [String] = []
        if let minimum, let literal = InspectionSQL.number(minimum) { bounds.append("\(measured) < \(literal)") }
        if let maximum, let literal = InspectionSQL.number(maximum) { bounds.append("\(measured) > \(literal)") }
        guard !bounds.isEmpty else { return nil }
        return RecordTest(condition: "_entity IN \(InspectionSQL.list(entities)) AND (\(bounds.joined(separator: " OR ")))",
                          value: type == .string ? "length(\(c))" : c)
    }

    /// Records of `entities` whose text attribute `property` the whole of the regular expression
    /// `pattern` does not match (Core Data's `MATCHES`); the value is reported. `nil` when the
    /// pattern does not compile.
    public static func failsPattern(_ property: StoredProperty, pattern: String, entities: [String]) -> RecordTest? {
        guard PatternMatcher.isValid(pattern) else { return nil }
        let c = InspectionSQL.identifier(property.column)
        return RecordTest(
            condition: "_entity IN \(InspectionSQL.list(entities)) AND typeof(\(c)) = 'text' AND \(PatternMatcher.functionName)(\(InspectionSQL.literal(pattern)), \(c))",
            value: c)
    }

    /// The storage classes the store writes for an attribute of `type`, or `nil` when any is accepted.
    static func storedKinds(of type: AttributeType) -> [InspectedValue.Kind]? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return [.integer]
        case .double, .float, .date: return [.integer, .real]
        case .decimal: return [.integer, .real, .text]
        case .string: return [.blob, .text]
        case .uuid, .uri, .objectID, .composite: return [.text]
        case .binary, .transformable: return [.blob, .text]
        case .undefined: return nil
        }
    }
}
