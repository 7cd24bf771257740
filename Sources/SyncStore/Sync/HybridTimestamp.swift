import Foundation

/// A hybrid logical clock reading: milliseconds since 1970 in the high 48 bits, a counter in the
/// low 16 (`docs/container.md`, "Clocks").
///
/// Every transaction gets one when it is saved: the larger of the wall clock and one more than
/// the largest reading the store has issued or imported. A transaction made after another was
/// imported therefore always reads later than it, however wrong the device's clock is, and a
/// clock that runs ahead only moves readings ahead, never back.
///
/// ```swift
/// let first = try HybridTimestamp.next(after: .zero, now: Date())
/// let later = try HybridTimestamp.next(after: first, now: Date(timeIntervalSince1970: 0))   // first + 1
/// ```
public struct HybridTimestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The packed reading.
    public let rawValue: Int64

    /// Wraps a packed reading.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The reading of a wall-clock instant with counter 0.
    public init(date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard !milliseconds.isNaN else {
            rawValue = 0
            return
        }
        let clamped = Int64(max(0, min(milliseconds, Double(Self.maxMilliseconds))))
        rawValue = clamped << 16
    }

    /// Before every reading.
    public static let zero = HybridTimestamp(rawValue: 0)

    /// The largest millisecond count that fits (about the year 10889).
    static let maxMilliseconds: Int64 = (1 << 47) - 1

    /// The wall-clock part.
    public var date: Date { Date(timeIntervalSince1970: Double(rawValue >> 16) / 1_000) }

    /// The reading for a new transaction: after `last` and not before `now`.
    ///
    /// - Throws: an error the save that asks turns into ``StoreError`` `damaged` when `last` is the
    ///   largest reading a clock can hold
    ///   (`Int64.max`, about the year 10889, from a store or a log written around storekeep): no
    ///   reading comes after it, and wrapping round would put the transaction before every other.
    public static func next(after last: HybridTimestamp, now: Date) throws -> HybridTimestamp {
        let wall = HybridTimestamp(date: now)
        if wall > last { return wall }
        let (following, overflow) = last.rawValue.addingReportingOverflow(1)
        guard !overflow else {
            throw DamagedValue(description: "the latest clock reading the store has issued or imported is \(last), the largest a clock can hold: no transaction can read after it (a store or a log written around storekeep)")
        }
        return HybridTimestamp(rawValue: following)
    }

    /// Orders readings.
    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `<milliseconds>.<counter>`.
    public var description: String { "\(rawValue >> 16).\(rawValue & 0xFFFF)" }

    /// Decodes from a plain integer.
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }

    /// Encodes as a plain integer.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
