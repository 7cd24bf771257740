import Foundation

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

    /// Writes `bytes` to `path` durably, making the folders it needs.
    ///
    /// - Parameter replacing: when `false`, a file at `path` is left as it is and the write fails
    ///   with ``ContainerError`` `wouldOverwrite` (files published once).
    func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws

    /// Removes `path` durably; whether there was a file.
    func delete(_ path: String) throws -> Bool

    /// The size in bytes and the time of the last write of `path`, or `nil` when there is no such file.
    func attributes(of path: String) -> (bytes: Int64, modified: Date)?
}

extension ContainerStorage {
    /// The whole of `path`, or `nil` when there is no such file.
    public func read(_ path: String) throws -> Data? { try read(path, limit: nil) }

    /// Writes `data` to `path` durably (see ``write(_:to:replacing:)``).
    public func write(_ data: Data, to path: String, replacing: Bool) throws {
        try data.withUnsafeBytes { try write($0, to: path, replacing: replacing) }
    }
}
