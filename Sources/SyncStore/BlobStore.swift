import CSystemCalls
import Foundation
import ObjectModel

/// Content-addressed files beside a store for large binary values.
///
/// A value is kept at `<store>.blobs/<first two hex digits>/<sha256 hex>`; the record's column
/// holds `sha256:<hex>`. Files are written to a temporary name, fsynced, renamed, and the folder
/// fsynced, so a crash leaves either the whole file or none (at worst an orphan `check` reports).
struct BlobStore: Sendable {
    /// The prefix of a column value that refers to a blob file.
    static let referencePrefix = "sha256:"

    /// The folder holding the blobs.
    let directory: URL

    /// The blob folder of the store at `storePath`.
    init(storePath: String) {
        directory = URL(fileURLWithPath: storePath + ".blobs")
    }

    /// The file that holds the blob with digest `hex`.
    func fileURL(forDigest hex: String) -> URL {
        directory.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex)
    }

    /// Writes `data` unless an identical blob exists, and returns its digest.
    ///
    /// With `durable` (the default) the file and its folder are fsynced before this returns. A batch
    /// writer passes `false` and calls ``flushFileSystem()`` once before it commits the rows that
    /// refer to its blobs: the same guarantee, one flush instead of two per file.
    func write(_ data: Data, durable: Bool = true) throws -> String {
        let hex = SHA256.hexDigest(of: data)
        let target = fileURL(forDigest: hex)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: target.path) { return hex }
        let folder = target.deletingLastPathComponent()
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(hex).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard fileManager.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let handle = try FileHandle(forWritingTo: temporary)
        do {
            try handle.write(contentsOf: data)
            if durable { try handle.synchronize() }
            try handle.close()
        } catch {
            try? handle.close()
            try? fileManager.removeItem(at: temporary)
            throw error
        }
        if rename(temporary.path, target.path) != 0 {
            let code = errno
            try? fileManager.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        if durable { Self.syncDirectory(folder.path) }
        return hex
    }

    /// Makes every blob written so far durable: one `syncfs` of the blob folder's file system
    /// (falling back to `sync` where `syncfs` is refused).
    func flushFileSystem() {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else {
            sync()
            return
        }
        if storekeep_syncfs(descriptor) != 0 { sync() }
        _ = close(descriptor)
    }

    /// Reads the blob with digest `hex`.
    func read(digest hex: String) throws -> Data {
        try Data(contentsOf: fileURL(forDigest: hex))
    }

    /// fsyncs a directory so that a rename inside it is durable.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
