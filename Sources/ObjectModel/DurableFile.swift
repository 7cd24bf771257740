import Foundation

/// The one way storekeep makes a file durable: written under a temporary name in the same folder,
/// fsynced, renamed into place, and the folder fsynced, so that after a crash the file is either
/// whole or absent (Litestream's rule for every file in shared storage).
///
/// ```swift
/// try DurableFile.write(Data("{}".utf8), to: "/container/peer/manifest.json")
/// try DurableFile.write(logBytes, to: path, replacing: false)   // refuses to overwrite
/// ```
public enum DurableFile {
    /// What can go wrong, with the path and the system's reason.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The file concerned.
        public var path: String
        /// What was being done ("write", "rename", …) and the system's reason.
        public var reason: String
        /// The `errno` value, when the system gave one.
        public var code: Int32

        /// `<path>: cannot <reason>`.
        public var description: String { "\(path): cannot \(reason)" }

        /// Whether the disk (or the user's quota) is full.
        public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    }

    /// Writes `bytes` to `path` durably.
    ///
    /// - Parameter replacing: when `false`, an existing file at `path` is an error (`EEXIST`) and is
    ///   left as it is: for files that are immutable once published.
    public static func write(_ bytes: Data, to path: String, replacing: Bool = true) throws {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in try write(raw, to: path, replacing: replacing) }
    }

    /// Writes `bytes` to `path` durably (see ``write(_:to:replacing:)``).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, reason: "create a temporary file in \(folder): \(String(cString: strerror(errno)))", code: errno) }
        var failure: Failure?
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let written = Foundation.write(descriptor, base + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                failure = Failure(path: path, reason: "write: \(String(cString: strerror(errno)))", code: errno)
                break
            }
            done += written
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(path: path, reason: "fsync: \(String(cString: strerror(errno)))", code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(path: path, reason: "close: \(String(cString: strerror(errno)))", code: errno) }
        if failure == nil { try reach(.temporaryWritten, path: path) }
        if failure == nil {
            if replacing {
                if rename(temporary, path) != 0 { failure = Failure(path: path, reason: "rename into place: \(String(cString: strerror(errno)))", code: errno) }
            } else if link(temporary, path) != 0 {
                // A hard link publishes the file only when nothing is there yet; the temporary name goes
                // below. A file system without hard links gets a rename when the name is still free.
                let code = errno
                if code != EEXIST, access(path, F_OK) != 0, rename(temporary, path) == 0 {
                    // published
                } else {
                    failure = Failure(path: path, reason: code == EEXIST ? "publish: the file already exists" : "publish: \(String(cString: strerror(code)))",
                                      code: code == EEXIST ? EEXIST : errno)
                }
            }
        }
        if failure == nil { try reach(.published, path: path) }
        unlink(temporary)
        if let failure { throw failure }
        syncFolder(folder)
    }

    /// fsyncs a folder, so that a rename or a new name inside it is durable.
    public static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
