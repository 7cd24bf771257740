import Foundation

/// Appends the primitives of storekeep's binary change encoding (`docs/container.md`, "Encoding")
/// to a growing byte buffer: LEB128 varints, zigzag integers, little-endian doubles, and
/// length-prefixed UTF-8 text and bytes.
///
/// ```swift
/// var writer = WireWriter()
/// writer.varint(300)
/// writer.text("Speech")
/// writer.bytes   // [0xAC, 0x02, 0x06, 0x53, …]
/// ```
public struct WireWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written.
    public var count: Int { bytes.count }

    /// Forgets what was written, keeping the buffer's capacity.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// One byte.
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// An unsigned LEB128 varint: seven bits a byte, low bits first.
    public mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A non-negative count or index as a varint.
    public mutating func count(_ value: Int) { varint(UInt64(max(value, 0))) }

    /// A signed integer, zigzag-encoded then written as a varint (small magnitudes stay short).
    public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A double as its IEEE-754 bits, little-endian (exact, NaN payloads and signed zeros included).
    public mutating func double(_ value: Double) {
        var bits = value.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    /// Text as a varint byte length and its UTF-8 bytes.
    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as a varint length and the bytes.
    public mutating func data(_ value: Data) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    /// Bytes as a varint length and the bytes.
    public mutating func data(_ value: [UInt8]) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    /// Raw bytes, without a length.
    public mutating func raw(_ value: some Sequence<UInt8>) { bytes.append(contentsOf: value) }
}
