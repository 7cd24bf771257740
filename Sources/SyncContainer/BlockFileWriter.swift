import CSystemCalls
import Foundation
import ObjectModel

/// Writes a new file through a one-megabyte buffer (small writes gathered, large ones passed
/// through): the streaming writer of snapshot baselines and what is taken out of them.
final class BlockFileWriter {
    private let descriptor: Int32
    private let path: String
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    private var filled = 0
    private var closed = false

    /// Creates `file` (which must not exist) for writing; failures name `path`, the file it becomes.
    init(creating file: String, for path: String) throws {
        descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        self.path = path
        guard descriptor >= 0 else {
            let code = errno
            buffer.deallocate()
            throw ContainerError.writing(DurableFile.Failure(path: path, reason: "create \(file): \(String(cString: strerror(code)))", code: code))
        }
    }

    deinit {
        if !closed { _ = close(descriptor) }
        buffer.deallocate()
    }

    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if filled + bytes.count > buffer.count { try flush() }
        if bytes.count >= buffer.count {
            try writeAll(UnsafeRawBufferPointer(start: source, count: bytes.count))
            return
        }
        (buffer.baseAddress! + filled).copyMemory(from: source, byteCount: bytes.count)
        filled += bytes.count
    }

    /// Appends the file at `source`, which must be exactly `bytes` long, copied by the kernel
    /// (`copy_file_range`) where the file systems allow, through the buffer otherwise.
    ///
    /// - Throws: ``ContainerError`` `io` when its size is not `bytes` (it changed while copied).
    func append(copyingFile source: String, bytes expected: Int64) throws {
        try flush()
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw ContainerError(.io, path: source, message: "cannot be opened: \(String(cString: strerror(errno)))", hint: "check permissions")
        }
        defer { _ = close(input) }
        var copied: Int64 = 0
        var inKernel = true
        while copied < expected {
            let want = Int(min(expected - copied, 1 << 30))
            if inKernel {
                let count = storekeep_copy_file_range(input, descriptor, UInt(want))
                if count > 0 {
                    copied += Int64(count)
                    continue
                }
                if count == 0 { break }
                if errno == EINTR { continue }
                guard [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP].contains(errno) else {
                    let code = errno
                    throw ContainerError.writing(DurableFile.Failure(path: path, reason: "copy \(source): \(String(cString: strerror(code)))", code: code))
                }
                inKernel = false
            }
            guard let base = buffer.baseAddress else { break }
            let count = read(input, base, min(buffer.count, want))
            if count < 0 {
                if errno == EINTR { continue }
                throw ContainerError(.io, path: source, message: "cannot be read: \(String(cString: strerror(errno)))", hint: "check the disk")
            }
            if count == 0 { break }
            try writeAll(UnsafeRawBufferPointer(start: base, count: count))
            copied += Int64(count)
        }
        var extra: UInt8 = 0
        guard copied == expected, read(input, &extra, 1) == 0 else {
            throw ContainerError(.io, path: source, message: "changed while it was copied (not \(expected) bytes)", hint: "run the command again")
        }
    }

    /// Writes what is buffered, fsyncs when `syncing`, and closes.
    func finish(syncing: Bool = true) throws {
        try flush()
        closed = true
        do {
            if syncing { try DurableFile.sync(descriptor: descriptor, path: path) }
        } catch {
            _ = close(descriptor)
            throw ContainerError.writing(error as? DurableFile.Failure ?? DurableFile.Failure(path: path, reason: "fsync", code: EIO))
        }
        guard close(descriptor) == 0 else {
            throw ContainerError.writing(DurableFile.Failure(path: path, reason: "close: \(String(cString: strerror(errno)))", code: errno))
        }
    }

    /// Closes without writing what is buffered (the caller removes the file).
    func abandon() {
        guard !closed else { return }
        closed = true
        _ = close(descriptor)
    }

    /// Writes what is buffered (not fsynced).
    func flushBuffer() throws { try flush() }

    private func flush() throws {
        guard filled > 0, let base = buffer.baseAddress else { return }
        try writeAll(UnsafeRawBufferPointer(start: base, count: filled))
        filled = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let count = Foundation.write(descriptor, base + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw ContainerError.writing(DurableFile.Failure(path: path, reason: "write: \(String(cString: strerror(code)))", code: code))
            }
            done += count
        }
    }
}
