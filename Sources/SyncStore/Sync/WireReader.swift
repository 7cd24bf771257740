import Foundation

/// Reads what ``WireWriter`` wrote, refusing anything malformed (a varint longer than ten bytes, a
/// length past the end, text that is not UTF-8) with ``WireError`` instead of trapping: log files
/// come from other machines and may be damaged or hostile.
public struct WireReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// Reads `bytes` from `offset`; `bytes` must outlive the reader.
    public init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The number of bytes left.
    public var remaining: Int { bytes.count - offset }

    /// One byte.
    public mutating func byte() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw WireError(offset: offset, problem: "the data ends early") }
        let value = bytes[offset]
        offset += 1
        return value
    }

    /// An unsigned LEB128 varint.
    public mutating func varint() throws(WireError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            let next = try byte()
            if shift == 63 && next > 1 { throw WireError(offset: start, problem: "a number does not fit in 64 bits") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw WireError(offset: start, problem: "a number does not fit in 64 bits") }
        }
    }

    /// A count or index: a varint no larger than `limit`.
    public mutating func count(limit: Int = Int(Int32.max)) throws(WireError) -> Int {
        let start = offset
        let value = try varint()
        guard value <= UInt64(limit) else { throw WireError(offset: start, problem: "a count of \(value) is larger than \(limit)") }
        return Int(value)
    }

    /// A zigzag-encoded signed integer.
    public mutating func signed() throws(WireError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A little-endian IEEE-754 double.
    public mutating func double() throws(WireError) -> Double {
        guard remaining >= 8 else { throw WireError(offset: offset, problem: "the data ends inside a number") }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return Double(bitPattern: bits)
    }

    /// Length-prefixed bytes, as a view into the buffer.
    public mutating func slice() throws(WireError) -> UnsafeRawBufferPointer {
        let start = offset
        let length = try count()
        guard length <= remaining else { throw WireError(offset: start, problem: "a length of \(length) bytes runs past the end") }
        let view = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        offset += length
        return view
    }

    /// Length-prefixed bytes, copied.
    public mutating func data() throws(WireError) -> Data { Data(try slice()) }

    /// Length-prefixed UTF-8 text.
    public mutating func text() throws(WireError) -> String {
        let start = offset
        let view = try slice()
        guard let text = String(validating: view, as: UTF8.self) else {
            throw WireError(offset: start, problem: "text that is not valid UTF-8")
        }
        return text
    }

    /// Steps over length-prefixed text, checking that it is UTF-8 without making a string of it.
    public mutating func skipText() throws(WireError) {
        let start = offset
        let view = try slice()
        guard Self.isUTF8(view) else { throw WireError(offset: start, problem: "text that is not valid UTF-8") }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return false }
            for next in stride(from: index + 2, to: index + length, by: 1) where bytes[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// `count` raw bytes.
    public mutating func raw(_ count: Int) throws(WireError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw WireError(offset: offset, problem: "the data ends early") }
        let view = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        return view
    }
}

/// A malformed piece of storekeep's binary change encoding: where, and what is wrong.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset where the bad item starts.
    public var offset: Int
    /// What is wrong, in words.
    public var problem: String

    /// Creates the error.
    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    /// `at byte <offset>: <problem>`.
    public var description: String { "at byte \(offset): \(problem)" }
}
