/// A run of missing sequence numbers, `first...last` inclusive.
public struct SequenceRange: Codable, Sendable, Hashable {
    /// The first missing number.
    public var first: Int64
    /// The last missing number.
    public var last: Int64

    /// Creates a range.
    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// `5` or `5-9`.
    public var text: String { first == last ? "\(first)" : "\(first)-\(last)" }
}
