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
}
