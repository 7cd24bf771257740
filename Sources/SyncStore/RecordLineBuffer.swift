import CLibCrypto

/// A reusable byte buffer for one canonical `R` line (`docs/format.md#the-content-digest`), with
/// the appends the line needs and its SHA-256, so that digesting a million records allocates
/// nothing per record.
public struct RecordLineBuffer {
    /// The line so far (UTF-8, no newline).
    private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    public init() {
        bytes.reserveCapacity(512)
    }

    /// Empties the buffer, keeping its capacity.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends ASCII text given as a literal.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends the UTF-8 of `text`.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends UTF-8 bytes.
    mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
    }

    /// Appends `<length>:<text>` (``SyncStore/field(_:)``).
    mutating func appendField(_ text: String) {
        var text = text
        text.withUTF8 { appendField(utf8: $0) }
    }

    /// Appends `<length>:<bytes>` for UTF-8 bytes.
    mutating func appendField(utf8: UnsafeBufferPointer<UInt8>) {
        append(decimal: Int64(utf8.count))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: utf8)
    }

    /// Appends a signed decimal number, as `String(number)` writes it.
    mutating func append(decimal number: Int64) {
        if number < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = number.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
        }
    }

    /// Appends lowercase hex without leading zeros, as `String(value, radix: 16)` writes it.
    mutating func append(hex value: UInt64) {
        let digits: StaticString = "0123456789abcdef"
        var shift = 60
        while shift > 0, (value >> UInt64(shift)) & 0xF == 0 { shift -= 4 }
        digits.withUTF8Buffer { digits in
            while shift >= 0 {
                bytes.append(digits[Int((value >> UInt64(shift)) & 0xF)])
                shift -= 4
            }
        }
    }

    /// The SHA-256 of the line, into `digest` (32 bytes).
    func sha256(into digest: UnsafeMutablePointer<UInt8>) {
        bytes.withUnsafeBufferPointer { _ = CLibCrypto.SHA256($0.baseAddress, $0.count, digest) }
    }
}
