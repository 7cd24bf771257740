import ObjectModel

/// An order-independent digest of a set of records: the sum, modulo 2^256, of the SHA-256 of each
/// record's canonical line (the `R` line of `docs/format.md#the-content-digest`).
///
/// A migration adds up the records it writes, batch by batch, keeps the sum in its checkpoint,
/// and at the end compares it with the sum over what the store holds.
public struct RecordDigestSum: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Four 64-bit words, most significant first.
    public private(set) var words: [UInt64] = [0, 0, 0, 0]

    /// The empty sum.
    public init() {}

    /// Reads a sum from its 64 hex digits; `nil` when the text is not one.
    public init?(hex: String) {
        guard hex.count == 64 else { return nil }
        var words: [UInt64] = []
        var index = hex.startIndex
        for _ in 0..<4 {
            let next = hex.index(index, offsetBy: 16)
            guard let word = UInt64(hex[index..<next], radix: 16) else { return nil }
            words.append(word)
            index = next
        }
        self.words = words
    }

    /// Adds one record's canonical line.
    public mutating func add(line: String) {
        var hasher = SHA256()
        hasher.update(line)
        add(digest: hasher.finalize())
    }

    /// Adds the line in `line` (its SHA-256, computed without allocating).
    mutating func add(line: RecordLineBuffer) {
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = bytes.baseAddress else { return }   // never: the tuple is 32 bytes
            line.sha256(into: base)
            add(digest: UnsafeBufferPointer(bytes))
        }
    }

    /// Adds a 32-byte digest.
    public mutating func add(digest bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { add(digest: $0) }
    }

    /// Adds a 32-byte digest held in a buffer.
    private mutating func add(digest bytes: UnsafeBufferPointer<UInt8>) {
        var carry: UInt64 = 0
        for word in (0..<4).reversed() {
            var value: UInt64 = 0
            for byte in bytes[(word * 8)..<(word * 8 + 8)] { value = value << 8 | UInt64(byte) }
            let (partial, overflow1) = words[word].addingReportingOverflow(value)
            let (sum, overflow2) = partial.addingReportingOverflow(carry)
            words[word] = sum
            carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
    }

    /// Adds another sum.
    public mutating func add(_ other: RecordDigestSum) {
        var bytes: [UInt8] = []
        for word in other.words { for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) } }
        add(digest: bytes)
    }

    /// 64 hex digits.
    public var description: String {
        words.map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
