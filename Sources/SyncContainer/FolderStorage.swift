import CSystemCalls
import Foundation
import ObjectModel

/// A container kept in a folder of the file system (a network share, a synced folder): the
/// ``ContainerStorage`` storekeep uses today. Files are written by ``DurableFile`` (a temporary
/// name beginning with `.`, fsynced, given its name by a rename, or by a hard link when nothing may
/// be replaced, the folder fsynced), removed with the folder fsynced.
public struct FolderStorage: ContainerStorage {
    /// Creates the storage.
    public init() {}

    /// The names in `folder`; none when it does not exist.
    public func list(_ folder: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            throw ContainerError(.unusableContainer, path: folder, message: "is a file where the container needs a folder", hint: "move the file away")
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ContainerError(.io, path: folder, message: "cannot be listed: \(error.localizedDescription)", hint: "check the container's permissions")
        }
    }

    /// The bytes of `path`, or `nil` when there is no such file.
    public func read(_ path: String, limit: Int?) throws -> Data? {
        try readAll(path, limit: limit).map { Data($0) }
    }

    /// The bytes of `path` read straight into an array (``DurableFile/readAll(of:limit:)``), or
    /// `nil` when there is no such file.
    public func readBytes(_ path: String) throws -> [UInt8]? {
        try readAll(path, limit: nil)
    }

    private func readAll(_ path: String, limit: Int?) throws -> [UInt8]? {
        do {
            return try DurableFile.readAll(of: path, limit: limit)
        } catch let failure as DurableFile.Failure {
            throw ContainerError(.io, path: path, message: "cannot be read: \(failure.reason)", hint: "check the disk, the share and the container's permissions")
        }
    }

    /// The device, inode, size, and change and modification times (nanoseconds) of the regular
    /// file `path` (not followed when it is a symbolic link): a write, a rename over it or a copy
    /// changes at least one, and the change time cannot be set back. Only on the local file
    /// systems that keep real inodes and change times (``filesystemsWithTrustedIdentity``); on
    /// others (FAT, FUSE and network mounts, where the change time may be the modification time
    /// and inodes may be made up) `nil`: their files are read again.
    public func fileIdentity(_ path: String) -> String? {
        guard Self.filesystemsWithTrustedIdentity.contains(Int64(storekeep_filesystem_type(path))) else { return nil }
        var facts = stat()
        guard lstat(path, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG else { return nil }
        return "\(facts.st_dev):\(facts.st_ino):\(facts.st_size):\(facts.st_ctim.tv_sec).\(facts.st_ctim.tv_nsec):\(facts.st_mtim.tv_sec).\(facts.st_mtim.tv_nsec)"
    }

    /// The `statfs` magic numbers of the file systems whose inodes and change times
    /// ``fileIdentity(_:)`` trusts: ext2/3/4, XFS, Btrfs, ZFS, F2FS, tmpfs and overlayfs.
    static let filesystemsWithTrustedIdentity: Set<Int64> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x2FC1_2FC1, 0xF2F5_2010, 0x0102_1994, 0x794C_7630]

    /// Reads `path` with read(2) into one reused buffer of `size` bytes.
    public func read(_ path: String, inBlocksOf size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        do {
            return try DurableFile.readBlocks(of: path, size: size, body)
        } catch let failure as DurableFile.Failure {
            throw ContainerError(.io, path: path, message: "cannot be read: \(failure.reason)", hint: "check the disk or share")
        }
    }

    /// Writes durably, making the folders it needs.
    public func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws {
        try write(to: path, replacing: replacing) { sink in try sink(bytes) }
    }

    /// Writes durably block by block (``DurableFile/write(to:replacing:syncing:from:)``), making
    /// the folders it needs.
    public func write(to path: String, replacing: Bool, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try SyncNamespace.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        try publishing(path, replacing: replacing) { try DurableFile.write(to: path, replacing: replacing, from: produce) }
    }

    /// How many bytes of a staged file are written before the disk is asked to start writing
    /// them (``DurableFile/stage(_:syncing:writebackEvery:from:)``): a restore's first entry
    /// reaches the disk after 8 MiB, not after the whole entry.
    static let writebackBytes = 8 << 20

    /// Writes a temporary file beside `path` (``DurableFile/stage(_:syncing:writebackEvery:from:)``:
    /// a name beginning with `.`, which readers skip), its writeback started every
    /// ``writebackBytes`` and not waited for (it is fsynced when published), making the folders it needs.
    public func stage(_ path: String, from produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String {
        try SyncNamespace.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        do {
            // Made durable when published (``DurableFile/publish(_:as:replacing:)`` fsyncs it first);
            // its writeback starts as it is written, not waited for, while the rest is produced.
            return try DurableFile.stage(path, syncing: false, writebackEvery: Self.writebackBytes, from: produce)
        } catch let failure as DurableFile.Failure {
            throw ContainerError.writing(failure)
        }
    }

    /// fsyncs the staged file and renames it to `path` (links it, when not `replacing`), the folder
    /// fsynced (``DurableFile/publish(_:as:replacing:)``).
    public func publish(staged: String, as path: String, replacing: Bool) throws {
        try publishing(path, replacing: replacing) { try DurableFile.publish(staged, as: path, replacing: replacing) }
    }

    /// Makes the staged files durable (``DurableFile/syncTogether(_:othersDirtyLimit:)``), so that
    /// their publish later has only the names left to make durable.
    public func makeDurable(staged files: [(staged: String, path: String)]) throws {
        do {
            try DurableFile.syncTogether(files.map { ($0.staged, $0.path) })
        } catch let failure as DurableFile.Failure {
            throw ContainerError.writing(failure)
        }
    }

    /// Makes every staged file durable, then names them, then makes the names durable
    /// (``DurableFile/publishTogether(_:replacing:othersDirtyLimit:)``): two waits for the disk
    /// where the system has little else to write, instead of two per file.
    public func publish(staged files: [(staged: String, path: String)], replacing: Bool) throws {
        do {
            try DurableFile.publishTogether(files.map { ($0.staged, $0.path) }, replacing: replacing)
        } catch let failure as DurableFile.Failure {
            // The failure names the file that could not be published.
            try publishing(failure.path, replacing: replacing) { throw failure }
        }
    }

    /// Removes the staged file.
    public func discard(staged: String) { unlink(staged) }

    /// Runs a durable write of `path`, its failures as ``ContainerError``s.
    private func publishing(_ path: String, replacing: Bool, _ write: () throws -> Void) throws {
        do {
            try write()
        } catch let failure as DurableFile.Failure where failure.code == EEXIST && !replacing {
            throw ContainerError(.wouldOverwrite, path: path, message: "exists already; it is published once and never replaced",
                                 hint: "leave it as it is")
        } catch let failure as DurableFile.Failure {
            throw ContainerError.writing(failure)
        }
    }

    /// Removes `path` and fsyncs its folder.
    public func delete(_ path: String) throws -> Bool {
        guard try unlinkIfThere(path) else { return false }
        DurableFile.syncFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return true
    }

    /// Unlinks every file of `paths`, then fsyncs each folder that lost one, once (on a disk
    /// where a flush is slow, a thousand logs cost one flush per folder, not a thousand).
    public func delete(_ paths: [String], removed: (String) throws -> Void) throws -> Int {
        var folders: [String] = []
        defer { for folder in folders { DurableFile.syncFolder(folder) } }
        var count = 0
        for path in paths where try unlinkIfThere(path) {
            count += 1
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if folders.last != folder, !folders.contains(folder) { folders.append(folder) }
            try removed(path)
        }
        return count
    }

    /// Unlinks `path`; whether there was a file.
    private func unlinkIfThere(_ path: String) throws -> Bool {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw ContainerError(.io, path: path, message: "cannot be removed: \(String(cString: strerror(code)))", hint: "check the container's permissions")
        }
        return true
    }

    /// Size and modification time from the file system.
    public func attributes(of path: String) -> (bytes: Int64, modified: Date)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return ((attributes[.size] as? NSNumber)?.int64Value ?? 0, attributes[.modificationDate] as? Date ?? .distantPast)
    }
}
