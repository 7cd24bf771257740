import Foundation
import ObjectModel

/// Content-addressed files beside a store for large binary values.
///
/// A value is kept at `<store>.blobs/<first two hex digits>/<sha256 hex>`; the record's column
/// holds `sha256:<hex>`. Files are written by ``DurableFile`` (a temporary name, fsynced, renamed, the
/// folder fsynced) or a ``DurableFileBatch`` (named only once their bytes are on disk), so a crash
/// leaves either the whole file or none (at worst an orphan `check` reports): a name found is
/// trusted to hold its content.
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
    /// ``directory``'s path, kept as text: an export or an import joins it with hundreds of
    /// thousands of digests, and `URL` paths cost more than the file reads.
    let directoryPath: String
    /// Where a batch's files are written ahead of its rows, one batch at a time
    /// (``BulkLoad/startWritingBlobFiles(of:)``).
    let writeQueue: DispatchQueue
    /// Where blobs are read instead of the folder, when they lie in another file (a snapshot
    /// baseline's): ``read(digest:)`` reads there.
    let packed: PackedBlobs?

    /// The blob folder of the store at `storePath`; its blobs read from `packed` when given.
    init(storePath: String, packed: PackedBlobs? = nil) {
        directory = Self.directory(ofStoreAt: storePath)
        directoryPath = directory.path
        writeQueue = DispatchQueue(label: "storekeep.blobs")
        self.packed = packed
    }

    /// The blob folder of the store at `storePath`.
    static func directory(ofStoreAt storePath: String) -> URL {
        URL(fileURLWithPath: storePath + ".blobs")
    }

    /// The file that holds the blob with digest `hex`.
    func fileURL(forDigest hex: String) -> URL {
        Self.fileURL(forDigest: hex, in: directory)
    }

    /// The sub-folder that holds the blob with digest `hex`, joined as text: export, import and
    /// snapshots name hundreds of thousands of these, and `URL` paths cost more than the files.
    func folderPath(forDigest hex: String) -> String {
        directoryPath + "/" + hex.prefix(2)
    }

    /// The file that holds the blob with digest `hex`, joined as text (``folderPath(forDigest:)``).
    func filePath(forDigest hex: String) -> String {
        folderPath(forDigest: hex) + "/" + hex
    }

    /// The file in the blob folder `directory` that holds the blob with digest `hex`.
    static func fileURL(forDigest hex: String, in directory: URL) -> URL {
        directory.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex)
    }

    /// Writes `data` unless an identical blob exists, and returns its digest.
    ///
    /// Without a `batch`, the file is durable (fsynced, and its folder) before this returns. A batch
    /// writer passes its ``DurableFileBatch`` and calls its `finish()` before it commits the rows
    /// that refer to its blobs: the same guarantee, with each file's writeback started at once and
    /// waited for later, and each folder fsynced once.
    func write(_ data: Data, into batch: DurableFileBatch? = nil) throws -> String {
        try write(data, digest: SHA256.hexDigest(of: data), into: batch)
    }

    /// Writes `data`, whose SHA-256 is `hex`, unless an identical blob exists, through
    /// ``DurableFile`` (or `batch`: a migration writes thousands of these), making the folders it needs.
    ///
    /// - Throws: `POSIXError` with the system's code (`ENOSPC` for a full disk).
    func write(_ data: Data, digest hex: String, into batch: DurableFileBatch? = nil) throws -> String {
        let folder = folderPath(forDigest: hex)
        let target = filePath(forDigest: hex)
        if access(target, F_OK) == 0 { return hex }
        func writeFile() throws {
            if let batch {
                try data.withUnsafeBytes { try batch.add($0, as: target) }
            } else {
                try DurableFile.write(data, to: target)
            }
        }
        do {
            try writeFile()
        } catch let failure as DurableFile.Failure where failure.code == ENOENT {
            // POSIX calls here too, so that a full disk is reported as one (ENOSPC), not as a Foundation error.
            for (path, parent) in [(directory.path, directory.deletingLastPathComponent().path), (folder, directory.path)] {
                if mkdir(path, 0o755) == 0 {
                    // The new folder's name is made durable with the files (batch) or at once.
                    if let batch { batch.folderChanged(parent) } else { DurableFile.syncFolder(parent) }
                } else if errno != EEXIST {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
            do {
                try writeFile()
            } catch let failure as DurableFile.Failure {
                throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
            }
        } catch let failure as DurableFile.Failure {
            throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
        }
        return hex
    }

    /// Reads the blob with digest `hex` (64 lowercase hex digits).
    ///
    /// Only a regular file in real folders is read: a digest that is not one, a symbolic link
    /// (the file's or its folder's) or a special file is refused, so that a reference or a link
    /// written around storekeep cannot make it read outside the store's folder. With `packed`,
    /// the blob is read there, checked against its digest.
    func read(digest hex: String) throws -> Data {
        guard Self.digest(inReference: Self.referencePrefix + hex) != nil else {
            throw POSIXError(.EINVAL)
        }
        if let packed { return try packed.read(digest: hex) }
        let subfolder = folderPath(forDigest: hex)
        let file = filePath(forDigest: hex)
        for folder in [directoryPath, subfolder] where BlobFolderEntryKind(at: folder) != .folder {
            throw POSIXError(BlobFolderEntryKind(at: folder) == nil ? .ENOENT : .ELOOP)
        }
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var facts = stat()
        guard fstat(descriptor, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG, facts.st_size >= 0, facts.st_size <= Int.max - 1 else {
            throw POSIXError(.EINVAL)
        }
        // Read at its size in one go (an export reads hundreds of thousands), and one byte past it:
        // a blob file is never written once named, so one longer than it was is not read as a blob.
        var data = Data(count: Int(facts.st_size) + 1)
        let read = try data.withUnsafeMutableBytes { buffer in
            do {
                return try DurableFile.readFully(descriptor, into: buffer, at: 0, path: file)
            } catch let failure as DurableFile.Failure {
                throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
            }
        }
        guard read == Int(facts.st_size) else { throw POSIXError(read > Int(facts.st_size) ? .EFBIG : .EIO) }
        data.count = read
        return data
    }
}
