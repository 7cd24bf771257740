import CSystemCalls
import Foundation

/// New files written by the hundred that must all be durable before anything refers to them (a
/// migration batch's blob files): each gets its name only once its bytes are on disk, so a name
/// never stands for a file a crash could leave short, and a file found under its name can be trusted.
///
/// ``DurableFile/write(_:to:replacing:syncing:)-(Data,_,_,_)`` makes one file durable with an fsync
/// of the file and one of its folder, each a wait for the disk. A batch starts each file's writeback
/// as soon as it is written and waits for all of them together, one of two ways:
/// - when the system holds little unwritten data besides the batch's own (`Dirty` and `Writeback`
///   in `/proc/meminfo`), one `syncfs` of the file system for the files and one for their names:
///   two waits for the whole batch, which wait for nothing much besides its own writes;
/// - otherwise (another process has much unwritten data on a busy server, which `syncfs` would
///   wait for), an `fdatasync` of each file and an fsync of each folder that gained a name:
///   syncing only what the batch wrote.
///
/// Files are written without a name where the system allows it (Linux `O_TMPFILE`: one that a
/// crash leaves vanishes with the process), else under a ``DurableFile/temporaryPath(for:)`` name
/// that leftover cleaners recognise. A name that is already taken keeps its file: the batch is for
/// files named after their content (a blob's SHA-256).
///
/// ```swift
/// let batch = DurableFileBatch()
/// for (digest, data) in blobs { try batch.add(data, as: folder + "/" + digest) }
/// try batch.finish()   // every file added is durable under its name
/// ```
///
/// Not safe to use from several threads at once.
public final class DurableFileBatch {
    /// A written file waiting for its writeback before it is named.
    private struct Pending {
        let descriptor: Int32
        let path: String
        /// The file's temporary name, where it could not be written without one.
        let temporary: String?
    }

    /// How many written files may wait for their writeback at once (each holds a descriptor).
    private let window: Int
    /// How much unwritten data of others a `syncfs` may wait for before files are synced one by one.
    private let othersDirtyLimit: Int
    private var pending: [Pending] = []
    private var pendingBytes = 0
    /// Whether the files now waiting are expected to be synced by one `syncfs` (decided at the first).
    private var expectsWholeFileSystemSync = false
    /// The folders that gained a name since the last ``finish()``.
    private var changedFolders: Set<String> = []
    /// How many times the batch made files durable with `syncfs` and one by one (for tests).
    public private(set) var wholeFileSystemSyncs = 0, fileByFileSyncs = 0

    /// Whether files can be named through `/proc/self/fd` (needed to name a file opened without one).
    private static let canNameUnnamedFiles = access("/proc/self/fd", X_OK) == 0

    /// A batch that lets at most `window` written files wait for their writeback at once, and
    /// flushes the whole file system only while the system's other unwritten data stays within
    /// `othersDirtyLimit` bytes (0: always file by file).
    public init(window: Int = 256, othersDirtyLimit: Int = 32 << 20) {
        self.window = max(1, window)
        self.othersDirtyLimit = othersDirtyLimit
    }

    deinit {
        discardPending()
    }

    /// Writes `bytes` as a new file that gets the name `path` once they are on disk; when `path`
    /// already names a file, that file is kept and the bytes are dropped.
    ///
    /// - Throws: ``DurableFile/Failure`` with the system's code (`ENOENT` when the folder is
    ///   missing, `ENOSPC` for a full disk); files added before stay in the batch.
    public func add(_ bytes: UnsafeRawBufferPointer, as path: String) throws {
        let folder = DurableFile.folder(of: path)
        var temporary: String?
        var descriptor: Int32 = Self.canNameUnnamedFiles ? storekeep_open_unnamed(folder) : -1
        if descriptor < 0 {
            guard !Self.canNameUnnamedFiles || [EOPNOTSUPP, EISDIR, EINVAL, ENOSYS].contains(errno) else {
                throw DurableFile.Failure(path: path, reason: "create a file in \(folder): \(String(cString: strerror(errno)))", code: errno)
            }
            let named = DurableFile.temporaryPath(for: path)
            descriptor = try DurableFile.createTemporary(named, for: path)
            temporary = named
        }
        if let failure = DurableFile.writeAll(bytes, to: descriptor, path: path) {
            _ = Foundation.close(descriptor)
            if let temporary { unlink(temporary) }
            throw failure
        }
        // Synced file by file, a file's writeback starts now, to be waited for in settleAll; one
        // syncfs instead writes all of them at once, in order on the disk.
        if pending.isEmpty { expectsWholeFileSystemSync = mayFlushWholeFileSystem(ownBytes: 0) }
        if !expectsWholeFileSystemSync { _ = storekeep_start_writeback(descriptor) }
        pending.append(Pending(descriptor: descriptor, path: path, temporary: temporary))
        pendingBytes += bytes.count
        if pending.count >= window { try settleAll() }
    }

    /// Records that `folder` changed (a sub-folder made in it for the batch's files), so that
    /// ``finish()`` makes it durable too.
    public func folderChanged(_ folder: String) {
        changedFolders.insert(folder)
    }

    /// Waits until every file added is on disk under its name, with the folders that changed.
    ///
    /// - Throws: ``DurableFile/Failure`` when a file could not be made durable or named; the files
    ///   not yet named are then dropped.
    public func finish() throws {
        try settleAll()
        guard !changedFolders.isEmpty else { return }
        if mayFlushWholeFileSystem(ownBytes: 0), syncWholeFileSystem(holding: changedFolders.first ?? ".") {
            wholeFileSystemSyncs += 1
        } else {
            for folder in changedFolders.sorted() { DurableFile.syncFolder(folder) }
            fileByFileSyncs += 1
        }
        changedFolders.removeAll()
    }

    /// Waits for the waiting files' bytes to reach the disk, then names them in the order they
    /// were added.
    private func settleAll() throws {
        guard let first = pending.first else { return }
        var codes = [Int32](repeating: 0, count: pending.count)
        if mayFlushWholeFileSystem(ownBytes: pendingBytes), storekeep_syncfs(first.descriptor) == 0 {
            wholeFileSystemSyncs += 1
        } else {
            for (index, file) in pending.enumerated() where fdatasync(file.descriptor) != 0 { codes[index] = errno }
            fileByFileSyncs += 1
        }
        for (index, file) in pending.enumerated() {
            var failure: DurableFile.Failure?
            if codes[index] != 0 {
                failure = DurableFile.Failure(path: file.path, reason: "fdatasync: \(String(cString: strerror(codes[index])))", code: codes[index])
            }
            if failure == nil {
                do {
                    try DurableFile.reach(.temporaryWritten, path: file.path)
                    failure = name(file)
                    if failure == nil { try DurableFile.reach(.published, path: file.path) }
                } catch {
                    discardPending(from: index)
                    throw error
                }
            }
            if let failure {
                discardPending(from: index)
                throw failure
            }
            close(file)
            changedFolders.insert(DurableFile.folder(of: file.path))
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    /// Whether a `syncfs` would wait for little besides `ownBytes` of this batch: the system's
    /// unwritten data (all file systems) is within ``othersDirtyLimit`` of it. `false` where
    /// `/proc/meminfo` cannot be read.
    private func mayFlushWholeFileSystem(ownBytes: Int) -> Bool {
        guard othersDirtyLimit > 0, let unwritten = Self.unwrittenBytes() else { return false }
        return unwritten <= ownBytes + othersDirtyLimit
    }

    /// `syncfs` of the file system holding `folder`.
    private func syncWholeFileSystem(holding folder: String) -> Bool {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = Foundation.close(descriptor) }
        return storekeep_syncfs(descriptor) == 0
    }

    /// `Dirty` plus `Writeback` of `/proc/meminfo`, in bytes.
    static func unwrittenBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        var total = 0, found = 0
        for line in text.split(separator: "\n") where line.hasPrefix("Dirty:") || line.hasPrefix("Writeback:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            total += kilobytes * 1024
            found += 1
        }
        return found == 2 ? total : nil
    }

    /// Gives `file` its name unless the name is taken (then the file there is kept).
    private func name(_ file: Pending) -> DurableFile.Failure? {
        guard let temporary = file.temporary else {
            guard storekeep_link_unnamed(file.descriptor, file.path) != 0, errno != EEXIST else { return nil }
            return DurableFile.Failure(path: file.path, reason: "name the written file: \(String(cString: strerror(errno)))", code: errno)
        }
        // DurableFile's own publishing without replacing (a link, or a rename where hard links are missing).
        guard let failure = DurableFile.name(temporary, as: file.path, replacing: false), failure.code != EEXIST else { return nil }
        return failure
    }

    private func close(_ file: Pending) {
        _ = Foundation.close(file.descriptor)
        if let temporary = file.temporary { unlink(temporary) }
    }

    /// Drops the files not yet named, from `start` on (closed; a temporary name removed).
    private func discardPending(from start: Int = 0) {
        for file in pending[start...] { close(file) }
        pending.removeAll()
        pendingBytes = 0
    }
}
