import Foundation
import GRDB
import ObjectModel

/// What ``SyncStore/removeUnreferencedBlobs(_:modifiedBefore:)`` (by digest) or
/// ``SyncStore/removeStrayBlobFolderFiles(_:modifiedBefore:)`` (by path) did with each file it was given.
public struct BlobCleanupResult: Equatable, Sendable {
    /// Files removed.
    public var removed: [String] = []
    /// Files a record refers to after all, or that are not what they were said to be: kept.
    public var referenced: [String] = []
    /// Files changed after the cut-off time (a writer may be about to refer to them), or being written: kept.
    public var tooRecent: [String] = []
    /// Files that do not exist (already gone).
    public var missing: [String] = []
}

extension SyncStore {
    /// Removes external binary files that no record refers to.
    ///
    /// The digests come from a check made earlier; each one is checked again here, inside a write
    /// transaction that keeps other writers out, against every binary column of every entity table.
    /// A file modified at or after `cutoff` is kept: a writer writes a value's file before it
    /// commits the row that refers to it, so a very new file without a row may be about to be used.
    ///
    /// - Parameters:
    ///   - digests: SHA-256 hex digests of the files to remove.
    ///   - cutoff: only files last modified before this time are removed.
    /// - Throws: ``StoreError`` (`invalidRequest` on a read-only store, `busy`, `io`).
    public func removeUnreferencedBlobs(_ digests: [String], modifiedBefore cutoff: Date) throws -> BlobCleanupResult {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        var result = BlobCleanupResult()
        let wanted = Set(digests)
        guard !wanted.isEmpty else { return result }
        do {
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let referenced = try referencedDigests(among: wanted, in: db)
                    for digest in wanted.sorted() {
                        let file = blobs.fileURL(forDigest: digest).path
                        if referenced.contains(digest) {
                            result.referenced.append(digest)
                        } else if let attributes = try? FileManager.default.attributesOfItem(atPath: file) {
                            let modified = attributes[.modificationDate] as? Date ?? .distantFuture
                            if modified >= cutoff {
                                result.tooRecent.append(digest)
                            } else {
                                try FileManager.default.removeItem(atPath: file)
                                result.removed.append(digest)
                            }
                        } else {
                            result.missing.append(digest)
                        }
                    }
                    return .commit
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.wrapping(error, path: path, action: "remove unreferenced external files")
        }
        for folder in Set(result.removed.map { blobs.fileURL(forDigest: $0).deletingLastPathComponent().path }) {
            DurableFile.syncFolder(folder)
        }
        return result
    }

    /// Removes files of the blob folder whose names are not blob names (anything but
    /// `<2 hex digits>/<64 hex digits>` with matching prefix): no record can refer to them.
    ///
    /// Each path must name a file (not a folder) directly in the blob folder or in one of its
    /// sub-folders; anything else is refused and kept (listed under `referenced`). A file modified at
    /// or after `cutoff`, or a blob being written by a process that still runs (`.<hex>.<pid>.<random>.tmp`),
    /// is kept (`tooRecent`).
    ///
    /// - Throws: ``StoreError`` (`invalidRequest` on a read-only store, `io`).
    public func removeStrayBlobFolderFiles(_ paths: [String], modifiedBefore cutoff: Date) throws -> BlobCleanupResult {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        var result = BlobCleanupResult()
        let folder = blobs.directory.standardizedFileURL.pathComponents
        var touchedFolders = Set<String>()
        for path in paths.sorted() {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let components = url.pathComponents
            let depth = components.count - folder.count
            let name = url.lastPathComponent
            guard Array(components.prefix(folder.count)) == folder, depth == 1 || depth == 2, !BlobStore.isBlobName(name, in: url) else {
                result.referenced.append(path)
                continue
            }
            // Not followed when it is a link: the link itself is what lies in the folder.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                if !FileManager.default.fileExists(atPath: url.path), (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == nil {
                    result.missing.append(path)
                } else {
                    result.referenced.append(path)
                }
                continue
            }
            guard attributes[.type] as? FileAttributeType != .typeDirectory else {
                result.referenced.append(path)
                continue
            }
            let modified = attributes[.modificationDate] as? Date ?? .distantFuture
            if modified >= cutoff || BlobStore.isTemporaryOfLiveProcess(name) {
                result.tooRecent.append(path)
                continue
            }
            guard unlink(url.path) == 0 else {
                if errno == ENOENT {
                    result.missing.append(path)
                    continue
                }
                let reason = String(cString: strerror(errno))
                throw StoreError(.io, path: self.path, message: "cannot remove \(path) from the blob folder: \(reason)",
                                 hint: "check the permissions of \(url.deletingLastPathComponent().path)")
            }
            result.removed.append(path)
            touchedFolders.insert(url.deletingLastPathComponent().path)
        }
        for folder in touchedFolders.sorted() { DurableFile.syncFolder(folder) }
        return result
    }

    /// Which of `candidates` (every digest, when `nil`) a binary column of some entity table
    /// refers to (`sha256:<hex>`).
    func referencedDigests(among candidates: Set<String>?, in db: Database) throws -> Set<String> {
        var found = Set<String>()
        var seen = Set<String>()
        for entity in model.entities {
            for attribute in model.attributes(of: entity.name) where attribute.type.isBinary && !attribute.isTransient {
                guard let table = layout.tableOfEntity[entity.name], let column = layout.attributeColumns[entity.name]?[attribute.name],
                      seen.insert("\(table).\(column)").inserted else { continue }
                let values = try String.fetchCursor(
                    db, sql: "SELECT DISTINCT \(column.quotedSQLIdentifier) FROM \(table.quotedSQLIdentifier) WHERE typeof(\(column.quotedSQLIdentifier)) = 'text'")
                while let value = try values.next() {
                    guard value.hasPrefix(BlobStore.referencePrefix) else { continue }
                    let digest = String(value.dropFirst(BlobStore.referencePrefix.count))
                    if candidates?.contains(digest) ?? (BlobStore.digest(inReference: value) != nil) { found.insert(digest) }
                }
            }
        }
        return found
    }
}
