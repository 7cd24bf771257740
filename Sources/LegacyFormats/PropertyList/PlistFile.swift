import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open, read-only file read with `pread`, so several readers can share it without a shared
/// position. Closed when the last reference goes.
final class PlistFile {
    let path: String
    let size: Int64
    private let descriptor: Int32

    /// Opens `path`; a missing, unreadable or non-regular file is `.missingInput`.
    init(path: String) throws(PropertyListError) {
        self.path = path
        let fd = openReadOnly(path)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : String(cString: strerror(code))
            throw PropertyListError(
                path: path, problem: "cannot open the property list: \(reason)",
                hint: "Check the path and that the file is readable.", failureKind: .missingInput)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PropertyListError(
                path: path, problem: "not a regular file (a folder or a device?)",
                hint: "Give the path of a .plist file.", failureKind: .missingInput)
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many were read (fewer only at
    /// the end of the file).
    func read(at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(PropertyListError) -> Int {
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer + done, count - done, off_t(offset + Int64(done)))
            if got < 0 {
                if errno == EINTR { continue }
                throw PropertyListError(
                    path: path, offset: offset + Int64(done),
                    problem: "reading failed: \(String(cString: strerror(errno)))", failureKind: .ioFailure)
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}

private func openReadOnly(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
