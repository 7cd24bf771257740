import Foundation
import ObjectModel

/// Where a container's files are kept: the small interface every read and write of a container
/// goes through (``SyncNamespace``, ``LogArchive``), so that a store other than a shared folder (an
/// object store such as S3) can hold a container later. Paths are the container's paths as
/// ``SyncNamespace`` builds them (`<container>/<content name>/<model hash>/…`); an object store
/// maps them to keys.
///
/// What an implementation must keep: a write is durable when it returns, and whole or absent after
/// a crash; a write that does not replace never changes a file that exists (the log files'
/// publish-once rule); listing never shows a file before it is whole.
public protocol ContainerStorage: Sendable {
    /// The names directly under `folder` (files and folders; empty when it does not exist).
    ///
    /// - Throws: ``ContainerError`` when `folder` cannot be listed (it is a file, no permission).
    func list(_ folder: String) throws -> [String]

    /// The bytes of `path` (only its first `limit` bytes when `limit` is given), or `nil` when there
    /// is no such file.
    ///
    /// - Throws: ``ContainerError`` when it exists and cannot be read.
    func read(_ path: String, limit: Int?) throws -> Data?

    /// The whole of `path` as bytes, or `nil` when there is no such file: what a log is decoded
    /// from, read without a copy where the storage can (``FolderStorage``).
    ///
    /// - Throws: ``ContainerError`` when it exists and cannot be read.
    func readBytes(_ path: String) throws -> [UInt8]?

    /// Writes `bytes` to `path` durably, making the folders it needs.
    ///
    /// - Parameter replacing: when `false`, a file at `path` is left as it is and the write fails
    ///   with ``ContainerError`` `wouldOverwrite` (files published once).
    func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws

    /// Reads `path` a block of at most `size` bytes at a time, handing each block to `body` (the
    /// buffer is reused: `body` copies what it keeps), so that a file of any size is read with the
    /// memory of one block.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// guard try storage.read(path, inBlocksOf: 1 << 20, { hasher.update(bytes: $0) }) else { /* no such file */ }
    /// ```
    ///
    /// - Returns: `false` when there is no such file (nothing handed to `body`).
    /// - Throws: ``ContainerError`` when it exists and cannot be read, or what `body` throws.
    func read(_ path: String, inBlocksOf size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool

    /// Writes to `path` durably, making the folders it needs, the bytes `produce` hands block by
    /// block to the sink it is given: a file of any size written with the memory of one block.
    /// The same contract as ``write(_:to:replacing:)``; when `produce` throws, nothing is left
    /// (no file at `path`, no temporary) and its error is thrown.
    ///
    /// ```swift
    /// try storage.write(to: path, replacing: false) { sink in
    ///     while let block = next() { try block.withUnsafeBytes { try sink($0) } }
    /// }
    /// ```
    func write(to path: String, replacing: Bool, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws

    /// Writes, as ``write(to:replacing:from:)`` does, the bytes `produce` hands, but under a
    /// staging name beside `path` that readers of the container never see: for a writer that
    /// gives several files their names only once every one of them is whole (a restore of an
    /// archive). The staged file is durable once published with ``publish(staged:as:replacing:)``
    /// (or removed with ``discard(staged:)``), and can be read meanwhile with
    /// ``read(_:inBlocksOf:_:)``.
    ///
    /// - Returns: the staging path.
    /// - Throws: ``ContainerError``, or what `produce` throws; either way nothing is left.
    func stage(_ path: String, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String

    /// Makes the staged file `staged` (from ``stage(_:from:)``) durable and gives it the name
    /// `path`; the staging name is gone afterwards, whether it succeeded or not.
    ///
    /// - Parameter replacing: when `false`, a file at `path` is left as it is and the publish fails
    ///   with ``ContainerError`` `wouldOverwrite`.
    func publish(staged: String, as path: String, replacing: Bool) throws

    /// Publishes staged files as ``publish(staged:as:replacing:)`` does each, in order, where the
    /// storage can make them durable together for less (the folder storage: every file durable
    /// before the first is named, the names made durable once at the end). On failure, the files
    /// published before the one that failed keep their names; the caller removes the staged rest.
    func publish(staged files: [(staged: String, path: String)], replacing: Bool) throws

    /// Makes staged files durable ahead of their publish, so that a caller can wait for the disk
    /// while it does other work (a restore, while the last entries are read back); publishing them
    /// afterwards still makes them durable, and finds little left to write.
    func makeDurable(staged files: [(staged: String, path: String)]) throws

    /// Removes the staged file `staged` (from ``stage(_:from:)``), which is never published.
    func discard(staged: String)

    /// Removes `path` durably; whether there was a file.
    func delete(_ path: String) throws -> Bool

    /// Removes every file of `paths`, in order, calling `removed` after each one there was; the
    /// removals are durable when it returns (a folder storage flushes each folder once, not once
    /// per file). When `removed` or a removal throws, the removals made so far are made durable
    /// before the error goes on.
    ///
    /// - Returns: how many of `paths` there were.
    func delete(_ paths: [String], removed: (String) throws -> Void) throws -> Int

    /// The size in bytes and the time of the last write of `path`, or `nil` when there is no such file.
    func attributes(of path: String) -> (bytes: Int64, modified: Date)?

    /// A text that changes whenever the file at `path` is written, replaced or copied over, or
    /// `nil` when there is no such file or the storage cannot tell: what lets a caller that read a
    /// file whole and found it sound skip reading it again while it stays the same.
    func fileIdentity(_ path: String) -> String?
}

extension ContainerStorage {
    /// A storage that cannot tell when a file changed gives no identity: its files are read again.
    public func fileIdentity(_ path: String) -> String? { nil }

    /// The whole of `path`, or `nil` when there is no such file.
    public func read(_ path: String) throws -> Data? { try read(path, limit: nil) }

    /// The whole of `path` as bytes, copied out of ``read(_:limit:)``.
    public func readBytes(_ path: String) throws -> [UInt8]? { try read(path, limit: nil).map { [UInt8]($0) } }

    /// Writes `data` to `path` durably (see ``write(_:to:replacing:)``).
    public func write(_ data: Data, to path: String, replacing: Bool) throws {
        try data.withUnsafeBytes { try write($0, to: path, replacing: replacing) }
    }

    /// For a storage that keeps whole objects: reads `path` whole and hands it to `body` in blocks.
    public func read(_ path: String, inBlocksOf size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let data = try read(path) else { return false }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + max(size, 1), bytes.count)
                try body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        return true
    }

    /// For a storage that keeps whole objects: gathers the blocks, then writes them whole.
    public func write(to path: String, replacing: Bool, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        var data = Data()
        try produce { data.append(contentsOf: $0) }
        try write(data, to: path, replacing: replacing)
    }

    /// For a storage that keeps whole objects: the bytes go whole to a staging name beside `path`
    /// (beginning with `.`, as the folder storage's temporaries).
    public func stage(_ path: String, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String {
        let staged = DurableFile.temporaryPath(for: path)
        try write(to: staged, replacing: false, from: produce)
        return staged
    }

    /// For a storage that keeps whole objects: the staged bytes are written under `path`, then the
    /// staging name removed.
    public func publish(staged: String, as path: String, replacing: Bool) throws {
        defer { discard(staged: staged) }
        guard let data = try read(staged) else {
            throw ContainerError(.io, path: staged, message: "the staged file is gone", hint: "run the same command again")
        }
        try write(data, to: path, replacing: replacing)
    }

    /// For a storage whose removals are durable one by one: one ``delete(_:)`` after another.
    public func delete(_ paths: [String], removed: (String) throws -> Void) throws -> Int {
        var count = 0
        for path in paths where try delete(path) {
            count += 1
            try removed(path)
        }
        return count
    }

    /// For a storage that keeps whole objects: nothing, as a staged object is whole once written.
    public func makeDurable(staged files: [(staged: String, path: String)]) throws {}

    /// One staged file after another.
    public func publish(staged files: [(staged: String, path: String)], replacing: Bool) throws {
        for file in files { try publish(staged: file.staged, as: file.path, replacing: replacing) }
    }

    /// For a storage that keeps whole objects: deletes the staging name.
    public func discard(staged: String) { _ = try? delete(staged) }
}
