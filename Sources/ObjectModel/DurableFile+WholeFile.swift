import Foundation

extension DurableFile {
    /// The bytes of the file at `path` (its first `limit` bytes, when given), read straight into
    /// the array that is returned: the size the file has when it is opened in as few `read(2)`
    /// calls as the kernel allows, then what it grew by since, a block at a time.
    ///
    /// - Returns: `nil` when there is no file at `path`.
    /// - Throws: ``Failure`` when it exists and cannot be opened or read.
    public static func readAll(of path: String, limit: Int? = nil) throws -> [UInt8]? {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            // No file there, or a file where a folder of the path should be: nothing to read.
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Failure(path: path, reason: "open for reading: \(String(cString: strerror(code)))", code: code)
        }
        defer { _ = close(input) }
        let cap = max(limit ?? Int.max, 0)
        var facts = stat()
        let size = fstat(input, &facts) == 0 ? max(Int(facts.st_size), 0) : 0
        var bytes = try [UInt8](unsafeUninitializedCapacity: min(size, cap)) { buffer, count in
            count = try readFully(input, into: UnsafeMutableRawBufferPointer(buffer), at: 0, path: path)
        }
        // Longer than it was when opened (or of no known size): the rest, a block at a time, once a
        // one-byte read says there is more.
        guard bytes.count == size, bytes.count < cap else { return bytes }
        var block: [UInt8] = [0]
        while bytes.count < cap {
            let want = min(block.count, cap - bytes.count)
            let read = try block.withUnsafeMutableBytes { buffer in
                try readFully(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: Int64(bytes.count), path: path)
            }
            bytes.append(contentsOf: block[0..<read])
            if read < want { break }
            if block.count == 1 { block = [UInt8](repeating: 0, count: 1 << 16) }
        }
        return bytes
    }

    /// Reads from `descriptor` at `offset` (`pread`, again when interrupted) until `buffer` is full
    /// or the file ends.
    ///
    /// - Returns: how many bytes were read: fewer than `buffer.count` only where the file ends.
    /// - Throws: ``Failure`` naming `path`, with the system's code.
    public static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, path: String) throws -> Int {
        var done = 0
        while done < buffer.count, let base = buffer.baseAddress {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw Failure(path: path, reason: "read at byte \(offset + Int64(done)): \(String(cString: strerror(code)))", code: code)
            }
            if count == 0 { break }
            done += count
        }
        return done
    }
}
