import CLibCrypto
import Foundation

/// A reusable byte buffer for one canonical `R` line (`docs/format.md#the-content-digest`), with
/// the appends the line needs and its SHA-256, so that digesting a million records allocates
/// nothing per record.
///
/// A class over memory it manages itself: the line is built from some thirty small appends per
/// record, and an array's uniqueness check and bounds checks on each of them cost more than the
/// copies. Each thread uses its own buffer.
public final class RecordLineBuffer {
    /// Room for the line: only the first ``count`` bytes are the line.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes of ``storage`` the line holds.
    private(set) var count = 0

    /// The line so far (UTF-8, no newline), copied.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// An empty buffer.
    public init() {
        capacity = 512
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Empties the buffer, keeping its capacity.
    func clear() {
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        let larger = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Appends ASCII text given as a literal (a copy of its bytes, no `String` in between; a
    /// one-character literal is held as a scalar, which `withUTF8Buffer` handles too).
    @inline(__always)
    func append(literal text: StaticString) {
        text.withUTF8Buffer { append(utf8: $0) }
    }

    /// Appends bytes prepared once (a label such as ` name=`).
    @inline(__always)
    func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(utf8: $0) }
    }

    /// Appends one byte.
    @inline(__always)
    func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends the UTF-8 of `text`.
    func append(text: String) {
        var text = text
        text.withUTF8 { append(utf8: $0) }
    }

    /// Appends UTF-8 bytes.
    func append(utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return }
        reserve(utf8.count)
        (storage + count).update(from: source, count: utf8.count)
        count += utf8.count
    }

    /// Appends `marker` and `<length>:<text>` when `text` holds no U+0000, and returns true;
    /// otherwise appends nothing and returns false (such a string is stored as a BLOB and takes
    /// the general encoding). One pass of `memchr` over the bytes instead of a generic search.
    func appendTextField(marker: UInt8, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            if let start = utf8.baseAddress, memchr(start, 0, utf8.count) != nil { return false }
            append(byte: marker)
            appendField(utf8: utf8)
            return true
        }
    }

    /// Appends `<length>:<text>` (``SyncStore/field(_:)``).
    func appendField(_ text: String) {
        var text = text
        text.withUTF8 { appendField(utf8: $0) }
    }

    /// Appends `<length>:<bytes>` for UTF-8 bytes.
    func appendField(utf8: UnsafeBufferPointer<UInt8>) {
        append(decimal: Int64(utf8.count))
        append(byte: UInt8(ascii: ":"))
        append(utf8: utf8)
    }

    /// Appends a signed decimal number, as `String(number)` writes it.
    func append(decimal number: Int64) {
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
    func append(hex value: UInt64) {
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
        CLibCrypto.storekeep_sha256(storage, count, digest)
    }
}
