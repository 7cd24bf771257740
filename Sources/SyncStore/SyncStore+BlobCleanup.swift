import Foundation
import GRDB

/// What ``SyncStore/removeUnreferencedBlobs(_:modifiedBefore:)`` did with each file it was given.
public struct BlobCleanupResult: Equatable, Sendable {
    /// Digests whose files were removed.
    public var removed: [String] = []
    /// Digests a record refers to after all: kept.
    public var referenced: [String] = []
    /// Digests whose files changed after the cut-off time (a writer may be about to refer to them): kept.
    public var tooRecent: [String] = []
    /// Digests with no file (already gone).
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
            BlobStore.syncDirectory(folder)
        }
        return result
    }

    /// Which of `candidates` a binary column of some entity table refers to (`sha256:<hex>`).
    private func referencedDigests(among candidates: Set<String>, in db: Database) throws -> Set<String> {
        var found = Set<String>()
        var seen = Set<String>()
        for entity in model.entities {
            for attribute in model.attributes(of: entity.name) where attribute.type.isBinary && !attribute.isTransient {
                guard let table = layout.tableOfEntity[entity.name], let column = layout.attributeColumns[entity.name]?[attribute.name],
                      seen.insert("\(table).\(column)").inserted else { continue }
                let values = try String.fetchCursor(
                    db, sql: "SELECT DISTINCT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) WHERE typeof(\(column.quotedDatabaseIdentifier)) = 'text'")
                while let value = try values.next() {
                    guard value.hasPrefix(BlobStore.referencePrefix) else { continue }
                    let digest = String(value.dropFirst(BlobStore.referencePrefix.count))
                    if candidates.contains(digest) { found.insert(digest) }
                }
            }
        }
        return found
    }
}
