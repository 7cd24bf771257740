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
            while offset < range.upperBound {
                let part = UnsafeMutableRawBufferPointer(rebasing: block[0..<Int(min(Int64(block.count), range.upperBound - offset))])
                let count = try DurableFile.readFully(input, into: part, at: offset, path: path)
                guard count == part.count else { throw unreadable(path, "it ends at byte \(offset + Int64(count))") }
                box.digest?.update(bytes: UnsafeRawBufferPointer(part))
                offset += Int64(count)
            }
        }
    }

    /// At most `count` bytes of the file at `path` from `offset` (fewer where it ends).
    static func bytes(of path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        try withDescriptor(path) { input in
            try [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                filled = try DurableFile.readFully(input, into: UnsafeMutableRawBufferPointer(buffer), at: offset, path: path)
            }
        }
    }

    /// Opens `path` for reading and hands the descriptor to `body`; a read that fails is reported
    /// as the read-back of `path` failing.
    private static func withDescriptor<Result>(_ path: String, _ body: (Int32) throws -> Result) throws -> Result {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw unreadable(path, "it cannot be opened: \(String(cString: strerror(errno)))") }
        defer { _ = close(input) }
        do {
            return try body(input)
        } catch let failure as DurableFile.Failure {
            throw unreadable(path, failure.reason)
        }
    }

    private static func unreadable(_ path: String, _ reason: String) -> ContainerError {
        ContainerError(.io, path: path, message: "cannot be read back: \(reason)", hint: "check the disk or share, then run the same command again")
    }
}
