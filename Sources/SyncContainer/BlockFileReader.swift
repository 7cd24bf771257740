import Foundation
import ObjectModel

/// Reads a file a megabyte at a time, one buffer reused: how snapshot baselines are copied and checked.
enum BlockFileReader {
    /// The size of a block.
    static let blockBytes = 1 << 20

    /// Calls `body` with each block of the file at `path` in order.
    ///
    /// - Throws: ``ContainerError`` `missingLog` when there is no such file, `io` when it cannot be read.
    static func forEachBlock(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run the command again") }
            throw ContainerError(.io, path: path, message: "cannot be opened: \(String(cString: strerror(code)))", hint: "check permissions")
        }
        defer { _ = close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 16)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return }
        while true {
            let count = read(descriptor, base, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ContainerError(.io, path: path, message: "cannot be read: \(String(cString: strerror(errno)))", hint: "check the disk or share")
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(start: base, count: count))
        }
    }

    /// Adds the file at `path`, which must be exactly `bytes` long, to the digest in `box`.
    ///
    /// - Throws: ``ContainerError`` `io` when its size is not `bytes` (it changed while read).
    static func hash(_ path: String, bytes expected: Int64, into box: DigestBox) throws {
        var read: Int64 = 0
        try forEachBlock(of: path) { block in
            read += Int64(block.count)
            guard read <= expected else { return }
            box.digest?.update(bytes: block)
        }
        guard read == expected else {
            throw ContainerError(.io, path: path, message: "changed while it was copied (\(read) bytes, not \(expected))", hint: "run the command again")
        }
    }

    /// Appends the file at `path`, which must be exactly `bytes` long, to `output`, adding it to `digest`.
    ///
    /// - Throws: ``ContainerError`` `io` when its size is not `bytes` (it changed while copied).
    static func copy(_ path: String, bytes expected: Int64, into output: BlockFileWriter, digest: inout SHA256) throws {
        var copied: Int64 = 0
        try forEachBlock(of: path) { block in
            copied += Int64(block.count)
            guard copied <= expected else { return }
            digest.update(bytes: block)
            try output.write(block)
        }
        guard copied == expected else {
            throw ContainerError(.io, path: path, message: "changed while it was copied (\(copied) bytes, not \(expected))", hint: "run the command again")
        }
    }
}
