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
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// How many bytes of ``storage`` the line holds.
    @exclusivity(unchecked) private(set) var count = 0

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

    /// Appends a signed decimal number, as `String(number)` writes it: digits written from the
    /// end into room reserved once.
    func append(decimal number: Int64) {
        var magnitude = number.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let length = digits + (number < 0 ? 1 : 0)
        reserve(length)
        if number < 0 { storage[count] = UInt8(ascii: "-") }
        var position = count + length - 1
        repeat {
            storage[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            position -= 1
        } while magnitude > 0
        count += length
    }

    /// Appends lowercase hex without leading zeros, as `String(value, radix: 16)` writes it.
    func append(hex value: UInt64) {
        let digits = value == 0 ? 1 : (64 - value.leadingZeroBitCount + 3) / 4
        reserve(digits)
        var rest = value
        var position = count + digits - 1
        while position >= count {
            let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
            storage[position] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
            rest >>= 4
            position -= 1
        }
        count += digits
    }

    /// The SHA-256 of the line, into `digest` (32 bytes).
    func sha256(into digest: UnsafeMutablePointer<UInt8>) {
        CLibCrypto.storekeep_sha256(storage, count, digest)
    }
}
