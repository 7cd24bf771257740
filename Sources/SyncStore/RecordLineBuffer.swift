import CLibCrypto

/// A reusable byte buffer for one canonical `R` line (`docs/format.md#the-content-digest`), with
/// the appends the line needs and its SHA-256, so that digesting a million records allocates
/// nothing per record.
public struct RecordLineBuffer {
    /// Room for the line: only the first ``count`` bytes are the line. Appends copy into it
    /// directly (`Array.append(contentsOf:)` cost about 2.5% of a migration's CPU in small copies).
    private var storage: [UInt8] = Array(repeating: 0, count: 512)
    /// How many bytes of ``storage`` the line holds.
    private(set) var count = 0

    /// The line so far (UTF-8, no newline).
    var bytes: ArraySlice<UInt8> { storage[..<count] }

    /// An empty buffer.
    public init() {}

    /// Empties the buffer, keeping its capacity.
    mutating func clear() {
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > storage.count {
            storage.append(contentsOf: repeatElement(0, count: max(count + extra, 2 * storage.count) - storage.count))
        }
    }

    /// Appends ASCII text given as a literal.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(utf8: $0) }
    }

    /// Appends one byte.
    mutating func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends the UTF-8 of `text`.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(utf8: $0) }
    }

    /// Appends UTF-8 bytes.
    mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return }
        reserve(utf8.count)
        let start = count
        storage.withUnsafeMutableBufferPointer { room in
            (room.baseAddress! + start).update(from: source, count: utf8.count)
        }
        count += utf8.count
    }

    /// Appends `<length>:<text>` (``SyncStore/field(_:)``).
    mutating func appendField(_ text: String) {
        var text = text
        text.withUTF8 { appendField(utf8: $0) }
    }

    /// Appends `<length>:<bytes>` for UTF-8 bytes.
    mutating func appendField(utf8: UnsafeBufferPointer<UInt8>) {
        append(decimal: Int64(utf8.count))
        append(byte: UInt8(ascii: ":"))
        append(utf8: utf8)
    }

    /// Appends a signed decimal number, as `String(number)` writes it.
    mutating func append(decimal number: Int64) {
        if number < 0 {
            append(byte: UInt8(ascii: "-"))
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
            for index in stride(from: count - 1, through: 0, by: -1) { append(byte: digits[index]) }
        }
    }

    /// Appends lowercase hex without leading zeros, as `String(value, radix: 16)` writes it.
    mutating func append(hex value: UInt64) {
        let digits: StaticString = "0123456789abcdef"
        var shift = 60
        while shift > 0, (value >> UInt64(shift)) & 0xF == 0 { shift -= 4 }
        digits.withUTF8Buffer { digits in
            while shift >= 0 {
                append(byte: digits[Int((value >> UInt64(shift)) & 0xF)])
                shift -= 4
            }
        }
    }

    /// The SHA-256 of the line, into `digest` (32 bytes).
    func sha256(into digest: UnsafeMutablePointer<UInt8>) {
        storage.withUnsafeBufferPointer { CLibCrypto.storekeep_sha256($0.baseAddress, count, digest) }
    }
}
