import Foundation
import ObjectModel

/// Parses a constant written in a step file (`value:`, `default:`) as a value of an attribute type.
enum StepValueParser {
    /// The value of `text` for `type`, or `nil` when the text does not fit the type.
    static func value(of text: String, as type: AttributeType) -> AttributeValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let number = Int64(trimmed), type.integerRange?.contains(number) == true else { return nil }
            return .integer(number)
        case .double, .float:
            // A value the type cannot hold exactly (NaN, a Float beyond its range) is no constant for it.
            return Double(trimmed).map { AttributeValue.double($0) }.flatMap { ValueFit.problem($0, as: type) == nil ? $0 : nil }
        case .decimal:
            return ValueFit.decimalProblem(trimmed) == nil ? .decimal(trimmed) : nil
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: return nil
            }
        case .string, .composite, .objectID:
            return .string(text)
        case .uri:
            return .uri(trimmed)
        case .uuid:
            return UUID(uuidString: trimmed).map { .uuid($0) }
        case .date:
            return CalendarDay.date(iso8601: trimmed, formats: [[.withInternetDateTime], [.withFullDate]]).map { .date($0) }
        case .binary, .transformable, .undefined:
            return nil
        }
    }
}
