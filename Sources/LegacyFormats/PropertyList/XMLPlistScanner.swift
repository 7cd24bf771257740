import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes are written as hex literals (0x3C is '<') because this is the hot path of every XML read.
///
/// A tokenizer for plist XML over a fixed-size buffer: memory stays the same whatever the file size.
///
/// It returns tags (``nextMarkup()``) and the text of leaf elements (``readContent(of:keep:)``),
/// skips comments, processing instructions and the DOCTYPE, and knows the line it is on.
final class XMLPlistScanner {
    private let file: PlistFile
    private let capacity: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var nextReadOffset: Int64
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEndOfFile = false
    @exclusivity(unchecked) private var lineBase = 1
    @exclusivity(unchecked) private var lineMark = 0

    /// A scanner of `file` from byte `startOffset`, which is on line `line`.
    init(file: PlistFile, startOffset: Int64 = 0, line: Int = 1, capacity: Int = 1 << 16) {
        self.file = file
        self.capacity = capacity
        self.nextReadOffset = startOffset
        self.lineBase = line
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// The byte offset in the file of the current position.
    var offset: Int64 { nextReadOffset - Int64(end - position) }

    /// The 1-based line of the current position.
    var line: Int { lineBase + Self.newlines(buffer + lineMark, count: position - lineMark) }

    /// A malformed-XML error at the current line.
    func failure(_ problem: String) -> PropertyListError {
        .xml(file.path, line: line, problem)
    }

    /// An error at the current line for an integer outside `Int64` (`problem` quotes it).
    func outOfRange(_ problem: String) -> PropertyListError {
        .outOfRange(file.path, line: line, problem)
    }

    // MARK: Tags

    /// Skips a UTF-8 byte order mark at the start of the file.
    func skipByteOrderMark() throws(PropertyListError) {
        if try ensure(3) >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
            position += 3
        }
    }

    /// The next tag, skipping whitespace, comments, processing instructions and the DOCTYPE;
    /// `nil` at the end of the file. Text other than whitespace is an error here.
    func nextMarkup() throws(PropertyListError) -> PlistMarkup? {
        while true {
            try skipWhitespace()
            if try ensure(1) == 0 { return nil }
            guard buffer[position] == 0x3C else {
                throw failure("text \(snippet()) outside of a leaf element")
            }
            let available = try ensure(9)
            guard available >= 2 else { throw failure("the file ends inside a tag") }
            switch buffer[position + 1] {
            case 0x3F:
                position += 2
                try scanPast(Self.piEnd, what: "processing instruction", collect: nil)
            case 0x21:
                if startsWith(Self.commentStart) {
                    position += Self.commentStart.count
                    try scanPast(Self.commentEnd, what: "comment", collect: nil)
                } else if startsWith(Self.doctypeStart) {
                    position += Self.doctypeStart.count
                    try skipDoctype()
                } else if startsWith(Self.cdataStart) {
                    throw failure("CDATA outside of a <string>")
                } else {
                    throw failure("unknown markup \(snippet())")
                }
            case 0x2F:
                position += 2
                let tag = try readName()
                try skipWhitespace()
                try expect(0x3E, after: "</\(tag.name)")
                return PlistMarkup(kind: .close, tag: tag)
            default:
                position += 1
                let tag = try readName()
                return PlistMarkup(kind: try finishStartTag(tag) ? .empty : .open, tag: tag)
            }
        }
    }

    /// Reads the text of a leaf element up to its end tag, decoding entities and CDATA. With
    /// `keep` false the text is only checked and skipped (nothing is stored).
    func readContent(of tag: PlistTag, keep: Bool) throws(PropertyListError) -> [UInt8] {
        var finished: [UInt8] = []
        var pending: [UInt8] = []
        while true {
            if try ensure(1) == 0 { throw failure("the file ends inside <\(tag.name)>") }
            if let found = memchr(buffer + position, Int32(0x3C), end - position) {
                let lessThan = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if keep { pending.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: lessThan - position)) }
                position = lessThan
            } else {
                if keep { pending.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: end - position)) }
                position = end
                continue
            }
            _ = try ensure(9)
            if startsWith(Self.endTagStart) {
                position += 2
                let closing = try readName()
                try skipWhitespace()
                try expect(0x3E, after: "</\(closing.name)")
                guard closing == tag else { throw failure("expected </\(tag.name)>, found </\(closing.name)>") }
                guard keep else { return [] }
                if finished.isEmpty { return try decodeEntities(pending) }
                try finished.append(contentsOf: decodeEntities(pending))
                return finished
            } else if startsWith(Self.commentStart) {
                position += Self.commentStart.count
                try scanPast(Self.commentEnd, what: "comment", collect: nil)
            } else if startsWith(Self.cdataStart) {
                position += Self.cdataStart.count
                if keep {
                    try finished.append(contentsOf: decodeEntities(pending))
                    pending.removeAll(keepingCapacity: true)
                    var raw: [UInt8] = []
                    try scanPast(Self.cdataEnd, what: "CDATA section", collect: &raw)
                    finished.append(contentsOf: raw)
                } else {
                    try scanPast(Self.cdataEnd, what: "CDATA section", collect: nil)
                }
            } else {
                position += 1
                let inner = try readName()
                throw failure("expected </\(tag.name)>, found <\(inner.name)>")
            }
        }
    }

    // MARK: Buffer

    /// Makes at least `count` bytes available from the position unless the file ends first;
    /// returns how many are available.
    private func ensure(_ count: Int) throws(PropertyListError) -> Int {
        if end - position >= count || atEndOfFile { return end - position }
        lineBase += Self.newlines(buffer + lineMark, count: position - lineMark)
        let remaining = end - position
        if remaining > 0, position > 0 { memmove(buffer, buffer + position, remaining) }
        end = remaining
        position = 0
        lineMark = 0
        while end - position < count, !atEndOfFile {
            let got = try file.read(at: nextReadOffset, count: capacity - end, into: buffer + end)
            if got == 0 { atEndOfFile = true }
            end += got
            nextReadOffset += Int64(got)
        }
        return end - position
    }

    private static func newlines(_ start: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var lines = 0
        var cursor = start
        var left = count
        while left > 0, let found = memchr(cursor, 0x0A, left) {
            let next = found.assumingMemoryBound(to: UInt8.self) + 1
            lines += 1
            left -= cursor.distance(to: next)
            cursor = next
        }
        return lines
    }

    private func startsWith(_ bytes: [UInt8]) -> Bool {
        guard end - position >= bytes.count else { return false }
        return matches(bytes, at: position)
    }

    /// Whether `bytes` are in the buffer at `index` (the caller knows they fit).
    private func matches(_ bytes: [UInt8], at index: Int) -> Bool {
        for offset in 0..<bytes.count where buffer[index + offset] != bytes[offset] { return false }
        return true
    }

    private func skipWhitespace() throws(PropertyListError) {
        while true {
            if position == end, try ensure(1) == 0 { return }
            var cursor = position
            let limit = end
            let bytes = buffer
            while cursor < limit {
                let byte = bytes[cursor]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
                cursor += 1
            }
            position = cursor
            if cursor < limit { return }
        }
    }

    private func expect(_ byte: UInt8, after what: @autoclosure () -> String) throws(PropertyListError) {
        guard try ensure(1) > 0, buffer[position] == byte else {
            throw failure("\(what()) is not closed with '>' (found \(snippet()))")
        }
        position += 1
    }

    /// Up to 20 characters from the position, quoted, for error messages.
    private func snippet() -> String {
        let count = min(20, end - position)
        if count == 0 { return "the end of the file" }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + position, count: count), as: UTF8.self)
        return "'" + text.prefix { $0 != "\n" } + "'"
    }
}

extension XMLPlistScanner {
    fileprivate static let piEnd = Array("?>".utf8)
    fileprivate static let commentStart = Array("<!--".utf8)
    fileprivate static let commentEnd = Array("-->".utf8)
    fileprivate static let doctypeStart = Array("<!DOCTYPE".utf8)
    fileprivate static let cdataStart = Array("<![CDATA[".utf8)
    fileprivate static let cdataEnd = Array("]]>".utf8)
    fileprivate static let endTagStart = Array("</".utf8)

    /// Reads an element name at the position; unknown names are errors.
    private func readName() throws(PropertyListError) -> PlistTag {
        let available = try ensure(16)
        var length = 0
        while length < available, Self.isNameByte(buffer[position + length]) { length += 1 }
        guard length > 0 else {
            throw failure("'<' is not followed by an element name (write '<' in text as &lt;)")
        }
        guard let tag = PlistTag.named(buffer + position, length: length) else {
            let name = String(decoding: UnsafeBufferPointer(start: buffer + position, count: length), as: UTF8.self)
            throw failure("unknown element <\(name)> (a property list has only plist, dict, key, array, string, integer, real, true, false, date and data)")
        }
        position += length
        return tag
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        // a-z, A-Z, 0-9, '-', '_', ':', '.', or any non-ASCII byte
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x3A)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte >= 0x80
    }

    /// Skips attributes up to `>` or `/>`; returns true for an empty element.
    private func finishStartTag(_ tag: PlistTag) throws(PropertyListError) -> Bool {
        while true {
            try skipWhitespace()
            guard try ensure(2) > 0 else { throw failure("the file ends inside the tag <\(tag.name)>") }
            let byte = buffer[position]
            if byte == 0x3E {
                position += 1
                return false
            }
            if byte == 0x2F {
                position += 1
                try expect(0x3E, after: "<\(tag.name)/")
                return true
            }
            guard Self.isNameByte(byte) else {
                throw failure("\(snippet()) inside the tag <\(tag.name)>")
            }
            while try ensure(1) > 0, Self.isNameByte(buffer[position]) { position += 1 }
            try skipWhitespace()
            guard try ensure(1) > 0, buffer[position] == 0x3D else {
                throw failure("an attribute of <\(tag.name)> is not written as name=\"value\"")
            }
            position += 1
            try skipWhitespace()
            guard try ensure(1) > 0, buffer[position] == 0x22 || buffer[position] == 0x27 else {
                throw failure("an attribute of <\(tag.name)> is not written as name=\"value\"")
            }
            let quote = [buffer[position]]
            position += 1
            try scanPast(quote, what: "attribute value", collect: nil)
        }
    }

    private func skipDoctype() throws(PropertyListError) {
        while true {
            guard try ensure(1) > 0 else { throw failure("the file ends inside <!DOCTYPE") }
            let byte = buffer[position]
            position += 1
            if byte == 0x3E { return }
            if byte == 0x5B { try scanPast(Array("]".utf8), what: "DOCTYPE", collect: nil) }
        }
    }

    /// Moves past the next occurrence of `terminator`, optionally collecting the bytes before it.
    private func scanPast(_ terminator: [UInt8], what: String, collect: UnsafeMutablePointer<[UInt8]>?) throws(PropertyListError) {
        let size = terminator.count
        while true {
            guard try ensure(size) >= size else { throw failure("the file ends inside a \(what)") }
            let searchLength = end - position - size + 1
            guard let found = memchr(buffer + position, Int32(terminator[0]), searchLength) else {
                collect?.pointee.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: searchLength))
                position += searchLength
                continue
            }
            let index = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
            collect?.pointee.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: index - position))
            if matches(terminator, at: index) {
                position = index + size
                return
            }
            collect?.pointee.append(buffer[index])
            position = index + 1
        }
    }
}
