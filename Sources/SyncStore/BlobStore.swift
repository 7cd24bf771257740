import CSystemCalls
import Foundation
import ObjectModel

/// Content-addressed files beside a store for large binary values.
///
/// A value is kept at `<store>.blobs/<first two hex digits>/<sha256 hex>`; the record's column
/// holds `sha256:<hex>`. Files are written by ``DurableFile`` (a temporary name, fsynced, renamed, the
/// folder fsynced), so a crash leaves either the whole file or none (at worst an orphan `check` reports).
struct BlobStore: Sendable {
    /// The prefix of a column value that refers to a blob file.
    static let referencePrefix = "sha256:"

    /// The digest in a `sha256:<64 lowercase hex digits>` reference, or `nil` when `value` is not one.
    static func digest(inReference value: String) -> String? {
        guard value.hasPrefix(referencePrefix) else { return nil }
        let hex = value.utf8.dropFirst(referencePrefix.utf8.count)
        guard hex.count == 64, hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `name`, found at `url`, is the name of a blob file: 64 lowercase hex digits in a
    /// sub-folder named after its first two.
    static func isBlobName(_ name: String, in url: URL) -> Bool {
        digest(inReference: referencePrefix + name) != nil && url.deletingLastPathComponent().lastPathComponent == String(name.prefix(2))
    }

    /// Whether `name` is that of a blob being written (a ``DurableFile`` temporary name,
    /// `.<hex>.<pid>.<random>.tmp`) by a process that still runs.
    static func isTemporaryOfLiveProcess(_ name: String) -> Bool {
        DurableFile.isTemporaryOfLiveProcess(name)
    }

    /// The folder holding the blobs.
    let directory: URL
    /// Where a batch's files are written ahead of its rows, one batch at a time
    /// (``BulkLoad/startWritingBlobFiles(of:)``).
    let writeQueue: DispatchQueue

    /// The blob folder of the store at `storePath`.
    init(storePath: String) {
        directory = Self.directory(ofStoreAt: storePath)
        writeQueue = DispatchQueue(label: "storekeep.blobs")
    }

    /// The blob folder of the store at `storePath`.
    static func directory(ofStoreAt storePath: String) -> URL {
        URL(fileURLWithPath: storePath + ".blobs")
    }

    /// The file that holds the blob with digest `hex`.
    func fileURL(forDigest hex: String) -> URL {
        Self.fileURL(forDigest: hex, in: directory)
    }

    /// The file in the blob folder `directory` that holds the blob with digest `hex`.
    static func fileURL(forDigest hex: String, in directory: URL) -> URL {
        directory.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex)
    }

    /// Writes `data` unless an identical blob exists, and returns its digest.
    ///
    /// With `durable` (the default) the file and its folder are fsynced before this returns. A batch
    /// writer passes `false` and calls ``flushFileSystem()`` once before it commits the rows that
    /// refer to its blobs: the same guarantee, one flush instead of two per file.
    func write(_ data: Data, durable: Bool = true) throws -> String {
        try write(data, digest: SHA256.hexDigest(of: data), durable: durable)
    }

    /// Writes `data`, whose SHA-256 is `hex`, unless an identical blob exists, through
    /// ``DurableFile`` (a migration writes thousands of these), making the folders it needs.
    ///
    /// - Throws: `POSIXError` with the system's code (`ENOSPC` for a full disk).
    func write(_ data: Data, digest hex: String, durable: Bool = true) throws -> String {
        let folder = directory.path + "/" + String(hex.prefix(2))
        let target = folder + "/" + hex
        if access(target, F_OK) == 0 { return hex }
        do {
            try DurableFile.write(data, to: target, syncing: durable)
        } catch let failure as DurableFile.Failure where failure.code == ENOENT {
            // POSIX calls here too, so that a full disk is reported as one (ENOSPC), not as a Foundation error.
            for path in [directory.path, folder] where mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            do {
                try DurableFile.write(data, to: target, syncing: durable)
            } catch let failure as DurableFile.Failure {
                throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
            }
        } catch let failure as DurableFile.Failure {
            throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
        }
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

    /// Reads the blob with digest `hex` (64 lowercase hex digits).
    ///
    /// Only a regular file in real folders is read: a digest that is not one, a symbolic link
    /// (the file's or its folder's) or a special file is refused, so that a reference or a link
    /// written around storekeep cannot make it read outside the store's folder.
    func read(digest hex: String) throws -> Data {
        guard Self.digest(inReference: Self.referencePrefix + hex) != nil else {
            throw POSIXError(.EINVAL)
        }
        let file = fileURL(forDigest: hex)
        for folder in [directory.path, file.deletingLastPathComponent().path] where BlobFolderEntryKind(at: folder) != .folder {
            throw POSIXError(BlobFolderEntryKind(at: folder) == nil ? .ENOENT : .ELOOP)
        }
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var facts = stat()
        guard fstat(descriptor, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG else { throw POSIXError(.EINVAL) }
        return try handle.readToEnd() ?? Data()
    }
}
