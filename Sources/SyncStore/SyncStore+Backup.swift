import Foundation
import ObjectModel
import GRDB

extension SyncStore {
    /// Writes a consistent copy of the store to `path`: the database through SQLite's backup API
    /// (one snapshot, even while another connection writes), then every external binary file.
    ///
    /// The copy is a store like any other (`storekeep info` opens it); restore it by moving it and
    /// its `.blobs` folder into the original's place. The database is copied first: a blob file is
    /// durable before any row refers to it, so every file the copied rows refer to already exists
    /// when the files are copied. Blob files are hard-linked where the file system allows (they are
    /// never changed in place), copied durably (``DurableFile``) otherwise.
    ///
    /// Only regular files and real folders of the blob folder are copied: a symbolic link (or a
    /// device, a socket…) is never followed, since it could lead out of the store's folder; each
    /// such entry is left out and handed to `leftOut`.
    ///
    /// ```swift
    /// var leftOut: [String] = []
    /// let files = try store.backup(to: "shop.store.backup") { leftOut.append($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - path: the copy's store file; neither it nor its `.blobs` folder may exist.
    ///   - leftOut: called with the path of each entry of the blob folder that is not copied, and why.
    /// - Returns: how many blob files the copy holds.
    /// - Throws: ``StoreError`` (`cannotCreate` when the destination exists, `io`, a full disk
    ///   included; `damaged` when the blob folder itself is a symbolic link). A copy that fails
    ///   part-way is removed: only whole backups are left.
    @discardableResult
    public func backup(to path: String, leftOut: (String) -> Void = { _ in }) throws -> Int {
        let fileManager = FileManager.default
        let copyBlobs = BlobStore(storePath: path).directory
        guard !fileManager.fileExists(atPath: path), !fileManager.fileExists(atPath: copyBlobs.path) else {
            throw StoreError(.cannotCreate, path: path, message: "the backup destination already exists",
                             hint: "choose another backup path, or move the old backup away")
        }
        do {
            let destination = try DatabaseQueue(path: path)
            try database.backup(to: destination)
            try destination.close()
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? fileManager.removeItem(atPath: path + suffix) }
            throw StoreError.wrapping(error, path: path, action: "back up the store to \(path)")
        }
        var copied = 0
        do {
            copied = try copyBlobFiles(to: copyBlobs, leftOut: leftOut)
        } catch let error as StoreError {
            for suffix in ["", "-wal", "-shm"] { try? fileManager.removeItem(atPath: path + suffix) }
            try? fileManager.removeItem(at: copyBlobs)
            throw error
        } catch {
            // Both were made by this call (neither existed before it).
            for suffix in ["", "-wal", "-shm"] { try? fileManager.removeItem(atPath: path + suffix) }
            try? fileManager.removeItem(at: copyBlobs)
            let full = (error as? DurableFile.Failure)?.isDiskFull
                ?? ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { $0.domain == NSPOSIXErrorDomain && $0.code == Int(ENOSPC) } ?? false
            throw StoreError(.io, path: path, message: "cannot copy the external binary files to \(copyBlobs.path): \(full ? "the disk is full" : error.localizedDescription)",
                             hint: "check free space and permissions, then try again")
        }
        DurableFile.syncFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return copied
    }

    /// Hard-links (or copies) every regular file of the blob folder into `destination`, keeping
    /// the two-level layout. Entries are told apart by `lstat`: links are not followed.
    private func copyBlobFiles(to destination: URL, leftOut: (String) -> Void) throws -> Int {
        let fileManager = FileManager.default
        let source = blobs.directory
        switch BlobFolderEntryKind(at: source.path) {
        case nil: return 0
        case .folder: break
        case .link, .file, .other:
            throw StoreError(.damaged, path: path, message: "the blob folder \(source.path) is not a folder but \(BlobFolderEntryKind(at: source.path)?.description ?? "missing"); storekeep does not follow links out of the store's folder",
                             hint: "move the external binary files into a real folder named \(source.lastPathComponent) beside the store")
        }
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
        var count = 0
        for folder in try fileManager.contentsOfDirectory(atPath: source.path).sorted() {
            let from = source.appendingPathComponent(folder)
            let kind = BlobFolderEntryKind(at: from.path)
            guard kind == .folder else {
                if kind != .file { leftOut("\(from.path): \(kind?.description ?? "gone"), not copied (never followed)") }
                continue
            }
            let to = destination.appendingPathComponent(folder)
            try fileManager.createDirectory(at: to, withIntermediateDirectories: true)
            for name in try fileManager.contentsOfDirectory(atPath: from.path).sorted() where !name.hasPrefix(".") {
                let file = from.appendingPathComponent(name).path
                let fileKind = BlobFolderEntryKind(at: file)
                guard fileKind == .file else {
                    leftOut("\(file): \(fileKind?.description ?? "gone"), not copied (never followed)")
                    continue
                }
                let copy = to.appendingPathComponent(name).path
                if link(file, copy) != 0 {
                    try DurableFile.copy(file, to: copy, replacing: false)
                }
                count += 1
            }
            DurableFile.syncFolder(to.path)
        }
        DurableFile.syncFolder(destination.path)
        return count
    }
}
