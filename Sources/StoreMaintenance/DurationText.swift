import Foundation

/// Durations as operators write them: a number and a unit, `90s`, `15m`, `12h`, `30d`, `2w`.
public enum DurationText {
    /// The duration in seconds, or `nil` when `text` is not one.
    public static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last, let number = Double(trimmed.dropLast()), number >= 0, number.isFinite else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3_600
        case "d": return number * 86_400
        case "w": return number * 7 * 86_400
        default: return nil
        }
    }
}
