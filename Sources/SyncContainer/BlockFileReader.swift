import Foundation
import ObjectModel

/// Reads a file a megabyte at a time, one buffer reused (``DurableFile/readBlocks(of:size:_:)``):
/// how snapshot baselines are copied and checked.
enum BlockFileReader {
    /// The size of a block.
    static let blockBytes = 1 << 20

    /// Calls `body` with each block of the file at `path` in order.
    ///
    /// - Throws: ``ContainerError`` `missingLog` when there is no such file, `io` when it cannot be read.
    static func forEachBlock(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let found: Bool
        do {
            found = try DurableFile.readBlocks(of: path, size: blockBytes, body)
        } catch let failure as DurableFile.Failure {
            throw ContainerError(.io, path: path, message: "cannot be read: \(failure.reason)", hint: "check the disk or share")
        }
        guard found else { throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run the command again") }
    }

    /// Adds the file at `path`, which must be exactly `bytes` long, to the digest in `box`, and
    /// appends it to `output` when given.
    ///
    /// - Throws: ``ContainerError`` `io` when its size is not `bytes` (it changed while read).
    static func hash(_ path: String, bytes expected: Int64, into box: DigestBox, copyingTo output: BlockFileWriter? = nil) throws {
        try hash(path, bytes: expected, into: box) { try output?.write($0) }
    }

    /// ``hash(_:bytes:into:copyingTo:)``, handing each block to `sink` after it is hashed.
    static func hash(_ path: String, bytes expected: Int64, into box: DigestBox, handingTo sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var read: Int64 = 0
        try forEachBlock(of: path) { block in
            read += Int64(block.count)
            guard read <= expected else { return }
            box.digest?.update(bytes: block)
            try sink(block)
        }
        guard read == expected else {
            throw ContainerError(.io, path: path, message: "changed while it was copied (\(read) bytes, not \(expected))", hint: "run the command again")
        }
    }

    /// Adds bytes `range` of the file at `path` to the digest in `box`, read with `pread` a block
    /// at a time: a read-back of what a writer (another thread, maybe still appending) has written.
    ///
    /// - Throws: ``ContainerError`` `io` when the file ends before `range` does or cannot be read.
    static func hash(_ path: String, range: Range<Int64>, into box: DigestBox) throws {
        try withDescriptor(path) { input in
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 16)
            defer { block.deallocate() }
            var offset = range.lowerBound
            while offset < range.upperBound, let base = block.baseAddress {
                let count = pread(input, base, Int(min(Int64(block.count), range.upperBound - offset)), off_t(offset))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw unreadable(path, at: offset, count < 0 ? String(cString: strerror(errno)) : "the file ends there") }
                box.digest?.update(bytes: UnsafeRawBufferPointer(start: base, count: count))
                offset += Int64(count)
            }
        }
    }

    /// At most `count` bytes of the file at `path` from `offset` (fewer where it ends).
    static func bytes(of path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        try withDescriptor(path) { input in
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return pread(input, base + filled, count - filled, off_t(offset) + off_t(filled))
                }
                if read < 0, errno == EINTR { continue }
                guard read >= 0 else { throw unreadable(path, at: offset + Int64(filled), String(cString: strerror(errno))) }
                if read == 0 { break }
                filled += read
            }
            return Array(bytes[0..<filled])
        }
    }

    private static func withDescriptor<Result>(_ path: String, _ body: (Int32) throws -> Result) throws -> Result {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw ContainerError(.io, path: path, message: "cannot be opened to be read back: \(String(cString: strerror(errno)))", hint: "check the disk or share")
        }
        defer { _ = close(input) }
        return try body(input)
    }

    private static func unreadable(_ path: String, at offset: Int64, _ reason: String) -> ContainerError {
        ContainerError(.io, path: path, message: "cannot be read back at byte \(offset): \(reason)", hint: "check the disk or share, then run the same command again")
    }
}
