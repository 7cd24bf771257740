import Foundation

/// The one way storekeep makes a file durable: written under a temporary name in the same folder,
/// fsynced, renamed into place, and the folder fsynced, so that after a crash the file is either
/// whole or absent (Litestream's rule for every file in shared storage).
///
/// Every file storekeep writes for keeps goes through it: the container's logs and manifests, blob
/// files, archives, new stores and seed stores, backups' copied files, the report of rejected
/// records. Bytes in memory are written with ``write(_:to:replacing:syncing:)``, a file copied with
/// ``copy(_:to:replacing:)``; a file another library writes (SQLite, libarchive) is made under
/// ``temporaryPath(for:)`` and put in place with ``publish(_:as:replacing:)``.
///
/// ```swift
/// try DurableFile.write(Data("{}".utf8), to: "/container/peer/manifest.json")
/// try DurableFile.write(logBytes, to: path, replacing: false)   // refuses to overwrite
/// ```
public enum DurableFile {
    /// Writes `bytes` to `path` durably.
    ///
    /// - Parameters:
    ///   - replacing: when `false`, an existing file at `path` is an error (`EEXIST`) and is left as
    ///     it is: for files that are immutable once published.
    ///   - syncing: when `false`, neither the file nor its folder is fsynced: for a writer of many
    ///     files that makes them all durable at once afterwards (one `syncfs`) before anything refers
    ///     to them. The file still appears whole or not at all.
    /// - Throws: ``Failure``, the temporary file removed and `path` untouched.
    public static func write(_ bytes: Data, to path: String, replacing: Bool = true, syncing: Bool = true) throws {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in try write(raw, to: path, replacing: replacing, syncing: syncing) }
    }

    /// Writes `bytes` to `path` durably (see ``write(_:to:replacing:syncing:)-(Data,_,_,_)``).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true, syncing: Bool = true) throws {
        let temporary = temporaryPath(for: path)
        let descriptor = try createTemporary(temporary, for: path)
        var failure = writeAll(bytes, to: descriptor, path: path)
        failure = finishTemporary(descriptor, path: path, syncing: syncing, failure: failure)
        try put(temporary, as: path, replacing: replacing, syncing: syncing, failure: failure)
    }

    /// Copies the file at `source` to `path` durably, a megabyte at a time (a file of any size).
    ///
    /// - Parameter replacing: as in ``write(_:to:replacing:syncing:)-(Data,_,_,_)``.
    /// - Throws: ``Failure`` (the source unreadable included), the temporary file removed.
    public static func copy(_ source: String, to path: String, replacing: Bool = true) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Failure(path: source, reason: "open for reading: \(String(cString: strerror(errno)))", code: errno) }
        defer { _ = close(input) }
        let temporary = temporaryPath(for: path)
        let descriptor = try createTemporary(temporary, for: path)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var failure: Failure?
        while failure == nil, let base = chunk.baseAddress {
            let count = read(input, base, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                failure = Failure(path: source, reason: "read: \(String(cString: strerror(errno)))", code: errno)
            } else if count == 0 {
                break
            } else {
                failure = writeAll(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), to: descriptor, path: path)
            }
        }
        failure = finishTemporary(descriptor, path: path, syncing: true, failure: failure)
        try put(temporary, as: path, replacing: replacing, syncing: true, failure: failure)
    }

    /// Puts the finished file `temporary` (made beside `path`, by ``temporaryPath(for:)`` or a name
    /// of the caller's) in place: fsynced, renamed to `path` (or linked, when `replacing` is
    /// `false`), the folder fsynced. For files that another library writes (a SQLite database, a
    /// libarchive archive), closed before this is called.
    ///
    /// - Throws: ``Failure``, the temporary file removed and `path` untouched.
    public static func publish(_ temporary: String, as path: String, replacing: Bool = true) throws {
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, reason: "open the finished temporary file \(temporary): \(String(cString: strerror(code)))", code: code)
        }
        let failure = finishTemporary(descriptor, path: path, syncing: true, failure: nil)
        try put(temporary, as: path, replacing: replacing, syncing: true, failure: failure)
    }

    /// Gives the file or folder at `source` the name `path` (replacing what has it) and fsyncs the
    /// folders of both: a move that survives a crash (a store's blob folder set aside, a stale lock
    /// taken over).
    ///
    /// - Throws: ``Failure`` with the system's code (`ENOENT` when there is nothing at `source`).
    public static func move(_ source: String, to path: String) throws {
        guard rename(source, path) == 0 else {
            throw Failure(path: source, reason: "move to \(path): \(String(cString: strerror(errno)))", code: errno)
        }
        let from = folder(of: source), to = folder(of: path)
        syncFolder(to)
        if from != to { syncFolder(from) }
    }

    /// fsyncs a folder, so that a rename, a new name or a removal inside it is durable.
    public static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// The folder part of `path` (`.` for a bare name), without Foundation's URL parsing: blob
    /// files are written by the thousand.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates `temporary` exclusively for writing.
    private static func createTemporary(_ temporary: String, for path: String) throws -> Int32 {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(path: path, reason: "create a temporary file in \(folder(of: path)): \(String(cString: strerror(errno)))", code: errno)
        }
        return descriptor
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) -> Failure? {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let written = Foundation.write(descriptor, base + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return Failure(path: path, reason: "write: \(String(cString: strerror(errno)))", code: errno)
            }
            done += written
        }
        return nil
    }

    /// fsyncs (when `syncing`) and closes the temporary file; the first failure wins.
    private static func finishTemporary(_ descriptor: Int32, path: String, syncing: Bool, failure: Failure?) -> Failure? {
        var failure = failure
        if failure == nil, syncing, fsync(descriptor) != 0 { failure = Failure(path: path, reason: "fsync: \(String(cString: strerror(errno)))", code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(path: path, reason: "close: \(String(cString: strerror(errno)))", code: errno) }
        return failure
    }

    /// Gives the written temporary file its name (unless an earlier step failed), removes the
    /// temporary name, and fsyncs the folder.
    private static func put(_ temporary: String, as path: String, replacing: Bool, syncing: Bool, failure: Failure?) throws {
        var failure = failure
        // An observer's error ends the write where it stands, the files left as a kill would leave them.
        if failure == nil { try reach(.temporaryWritten, path: path) }
        if failure == nil { failure = name(temporary, as: path, replacing: replacing) }
        if failure == nil { try reach(.published, path: path) }
        unlink(temporary)
        if let failure { throw failure }
        if syncing { syncFolder(folder(of: path)) }
    }

    /// Renames `temporary` to `path`, or, when not `replacing`, links it there only if the name is free.
    private static func name(_ temporary: String, as path: String, replacing: Bool) -> Failure? {
        if replacing {
            return rename(temporary, path) == 0 ? nil : Failure(path: path, reason: "rename into place: \(String(cString: strerror(errno)))", code: errno)
        }
        if link(temporary, path) == 0 { return nil }
        // A hard link publishes the file only when nothing is there yet; the temporary name goes
        // afterwards. A file system without hard links gets a rename when the name is still free.
        let code = errno
        if code != EEXIST, access(path, F_OK) != 0, rename(temporary, path) == 0 { return nil }
        return Failure(path: path, reason: code == EEXIST ? "publish: the file already exists" : "publish: \(String(cString: strerror(code)))",
                       code: code == EEXIST ? EEXIST : errno)
    }
}
