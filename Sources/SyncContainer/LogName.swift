/// A log file's name: `<first>-<last>.sklog`, both sequence numbers written with 20 digits so that
/// names sort in sequence order.
public struct LogName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first and last sequence numbers the file says it holds.
    public var first: Int64
    public var last: Int64

    /// The name for a range.
    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// Parses a file name; `nil` for anything else.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".sklog") else { return nil }
        let parts = fileName.dropLast(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 20 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let first = Int64(parts[0]), let last = Int64(parts[1]), first >= 1, first <= last else { return nil }
        self.first = first
        self.last = last
    }

    /// The file name.
    public var fileName: String { "\(Self.padded(first))-\(Self.padded(last)).sklog" }

    /// The file name.
    public var description: String { fileName }

    /// Orders by first sequence number.
    public static func < (lhs: LogName, rhs: LogName) -> Bool { (lhs.first, lhs.last) < (rhs.first, rhs.last) }

    private static func padded(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }
}
