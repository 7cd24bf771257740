import CSystemCalls
import Foundation

/// The one way storekeep makes a file durable: written under a temporary name in the same folder,
/// fsynced, renamed into place, and the folder fsynced, so that after a crash the file is either
/// whole or absent (Litestream's rule for every file in shared storage).
///
/// Every file storekeep writes for keeps goes through it: the container's logs and manifests, blob
/// files, archives, new stores and seed stores, backups' copied files, the report of rejected
/// records. Bytes in memory are written with ``write(_:to:replacing:syncing:)``, bytes that come a
/// block at a time with ``write(to:replacing:syncing:from:)``, a file copied with
/// ``copy(_:to:replacing:)``; a file another library writes (SQLite, libarchive) is made under
/// ``temporaryPath(for:)`` and put in place with ``publish(_:as:replacing:)``, and files that must
/// all be whole before any gets its name are written with ``stage(_:syncing:writebackEvery:from:)`` first.
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
    ///   - syncing: when `false`, neither the file nor its folder is fsynced: for a writer that makes
    ///     the file durable another way before anything refers to it (many new files that must be
    ///     durable together are better written with ``DurableFileBatch``, which names each only once
    ///     its bytes are on disk). The file still appears whole or not at all.
    /// - Throws: ``Failure``, the temporary file removed and `path` untouched.
    public static func write(_ bytes: Data, to path: String, replacing: Bool = true, syncing: Bool = true) throws {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in try write(raw, to: path, replacing: replacing, syncing: syncing) }
    }

    /// Writes `bytes` to `path` durably (see ``write(_:to:replacing:syncing:)-(Data,_,_,_)``).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true, syncing: Bool = true) throws {
        try write(to: path, replacing: replacing, syncing: syncing) { sink in try sink(bytes) }
    }

    /// Writes to `path` durably the bytes `produce` hands, block by block, to the sink it is given:
    /// a file of any size written with the memory of one block (an entry coming out of an archive).
    ///
    /// ```swift
    /// try DurableFile.write(to: path, replacing: false) { sink in
    ///     for block in blocks { try block.withUnsafeBytes { try sink($0) } }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - replacing: as in ``write(_:to:replacing:syncing:)-(Data,_,_,_)``.
    ///   - syncing: as in ``write(_:to:replacing:syncing:)-(Data,_,_,_)``.
    /// - Throws: ``Failure``, or the error `produce` throws; either way the temporary file is
    ///   removed and `path` untouched.
    public static func write(to path: String, replacing: Bool = true, syncing: Bool = true,
                             from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let temporary = try stage(path, syncing: syncing, from: produce)
        try put(temporary, as: path, replacing: replacing, syncing: syncing, failure: nil)
    }

    /// Writes the bytes `produce` hands to its sink into a new temporary file beside `path`
    /// (``temporaryPath(for:)``), fsynced (when `syncing`) and closed, without giving it the name
    /// `path`: for a writer that publishes several files only once all of them are whole (a
    /// restore of an archive). The caller gives it its name with ``publish(_:as:replacing:)`` or
    /// removes it.
    ///
    /// ```swift
    /// let temporary = try DurableFile.stage(path) { sink in try data.withUnsafeBytes { try sink($0) } }
    /// try DurableFile.publish(temporary, as: path, replacing: false)
    /// ```
    ///
    /// - Parameters:
    ///   - syncing: whether the file is fsynced before it is closed; a caller that makes several
    ///     staged files durable together (``publishTogether(_:replacing:othersDirtyLimit:)``) passes `false`.
    ///   - writebackEvery: when greater than 0, the disk is asked to start writing every
    ///     `writebackEvery` bytes as soon as they are written, and the rest when the file is
    ///     closed, without waiting for it (Linux `sync_file_range`): the disk works while the rest
    ///     is produced, and the fsync that makes the file durable later finds little left to write.
    /// - Returns: the temporary file's path.
    /// - Throws: ``Failure``, or the error `produce` throws; either way the temporary file is removed.
    public static func stage(_ path: String, syncing: Bool = true, writebackEvery: Int = 0,
                             from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String {
        let temporary = temporaryPath(for: path)
        let descriptor = try createTemporary(temporary, for: path)
        var written: Int64 = 0
        var handedToDisk: Int64 = 0
        do {
            try produce { bytes in
                if let failure = writeAll(bytes, to: descriptor, path: path) { throw failure }
                written += Int64(bytes.count)
                if writebackEvery > 0, written - handedToDisk >= Int64(writebackEvery) {
                    // A hint: a disk or kernel that cannot is left to write back on its own.
                    _ = storekeep_start_writeback_range(descriptor, handedToDisk, written - handedToDisk)
                    handedToDisk = written
                }
            }
            if writebackEvery > 0, written > handedToDisk { _ = storekeep_start_writeback_range(descriptor, handedToDisk, written - handedToDisk) }
        } catch {
            _ = close(descriptor)
            unlink(temporary)
            throw error
        }
        if let failure = finishTemporary(descriptor, path: path, syncing: syncing, failure: nil) {
            unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// Copies the file at `source` to `path` durably, a megabyte at a time (a file of any size).
    ///
    /// - Parameter replacing: as in ``write(_:to:replacing:syncing:)-(Data,_,_,_)``.
    /// - Throws: ``Failure`` (the source unreadable included), the temporary file removed.
    public static func copy(_ source: String, to path: String, replacing: Bool = true) throws {
        try write(to: path, replacing: replacing) { sink in
            guard try readBlocks(of: source, size: 1 << 20, sink) else {
                throw Failure(path: source, reason: "open for reading: \(String(cString: strerror(ENOENT)))", code: ENOENT)
            }
        }
    }

    /// Reads the file at `path` a block of at most `size` bytes at a time into one buffer, handing
    /// each block to `body`: a file of any size read with the memory of one block.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// let found = try DurableFile.readBlocks(of: path, size: 1 << 20) { hasher.update(bytes: $0) }
    /// ```
    ///
    /// - Returns: `false` when there is no file at `path` (nothing handed to `body`).
    /// - Throws: ``Failure`` when it exists and cannot be opened or read, or the error `body` throws.
    @discardableResult
    public static func readBlocks(of path: String, size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw Failure(path: path, reason: "open for reading: \(String(cString: strerror(errno)))", code: errno)
        }
        defer { _ = close(input) }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
        defer { block.deallocate() }
        while let base = block.baseAddress {
            let count = read(input, base, block.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: "read: \(String(cString: strerror(errno)))", code: errno)
            }
            if count == 0 { break }
            try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
        }
        return true
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

    /// fsyncs the open file `descriptor` of a file that is not yet published (a writer that
    /// streams a file itself, then publishes it with ``publish(_:as:replacing:)``).
    ///
    /// - Throws: ``Failure`` naming `path`.
    public static func sync(descriptor: Int32, path: String) throws {
        guard fsync(descriptor) == 0 else { throw Failure(path: path, reason: "fsync: \(String(cString: strerror(errno)))", code: errno) }
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
    static func createTemporary(_ temporary: String, for path: String) throws -> Int32 {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(path: path, reason: "create a temporary file in \(folder(of: path)): \(String(cString: strerror(errno)))", code: errno)
        }
        return descriptor
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) -> Failure? {
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
    static func name(_ temporary: String, as path: String, replacing: Bool) -> Failure? {
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
