import Foundation
import ObjectModel
import SyncStore

/// External binary values (`<store>.blobs/`): references to files that do not exist, files no
/// record refers to, malformed references, and (`--full`) files whose content does not hash to their name.
enum BlobDetector {
    /// A record's reference to a blob.
    private struct Reference {
        var globalID: String
        var entity: String
        var property: String
    }

    /// Files this young are not called orphans while a writer may be active: a writer stores the
    /// file before it commits the row that refers to it.
    static let orphanGrace: TimeInterval = 60

    /// Checks the references and the blob folder. `writerMayBeActive` is false when the store was
    /// read as an immutable file (no process had it open).
    static func check(_ context: CheckContext, writerMayBeActive: Bool) throws {
        guard let model = context.model else { return }
        var references: [String: [Reference]] = [:]
        var seen = Set<String>()
        for entity in model.entities {
            for attribute in entity.attributes where attribute.type.isBinary && !attribute.isTransient {
                guard let column = context.column(attribute.name, of: entity.name), column.kind == .attribute,
                      seen.insert("\(column.table).\(column.column)").inserted else { continue }
                try context.inspection.forEachBlobReference(in: column, holders: context.family(of: entity.name)) { reference in
                    if let hash = reference.digest {
                        references[hash, default: []].append(Reference(globalID: reference.globalID, entity: reference.entity, property: attribute.name))
                    } else {
                        badReference(context, gid: reference.globalID, entity: reference.entity, property: attribute.name, table: column.table,
                                     value: reference.text)
                    }
                }
            }
        }
        let folder = context.inspection.blobFolder
        let files = BlobFolderListing(folder: folder)
        for (hash, referrers) in references.sorted(by: { $0.key < $1.key }) {
            let file = context.inspection.blobFile(forDigest: hash)
            if files.blobs[hash] == nil {
                for (key, group) in Dictionary(grouping: referrers, by: { "\($0.entity)\u{1F}\($0.property)" }).sorted(by: { $0.key < $1.key }) {
                    let first = group[0]
                    context.add(.blobMissing, entity: first.entity, property: first.property) {
                        _ = key
                        var finding = CheckFinding(
                            code: .blobMissing, entity: first.entity, globalIDs: group.map(\.globalID),
                            message: "\(group.count) \(first.entity) record\(group.count == 1 ? "" : "s") refer to the external value \(hash.prefix(12))… of \(first.property), but \(file) does not exist",
                            hint: "restore the file from a backup of the blob folder (same name); storekeep never invents the content")
                        finding.property = first.property
                        finding.file = file
                        finding.blobHash = hash
                        return finding
                    }
                }
            } else if context.options.depth == .full, let actual = hashFile(atPath: file), actual != hash {
                context.add(.blobContentMismatch, entity: referrers[0].entity, property: referrers[0].property) {
                    var finding = CheckFinding(
                        code: .blobContentMismatch, entity: referrers[0].entity, globalIDs: referrers.map(\.globalID),
                        message: "the external value \(file) hashes to \(actual.prefix(12))…, not to its name: its content is damaged",
                        hint: "restore the file from a backup of the blob folder; the records that refer to it read damaged bytes")
                    finding.property = referrers[0].property
                    finding.file = file
                    finding.blobHash = hash
                    finding.actualHash = actual
                    return finding
                }
            }
        }
        let cutoff = context.started.addingTimeInterval(-orphanGrace)
        let orphans = files.blobs.filter { references[$0.key] == nil }.map { ($0.value, Optional($0.key)) }
            + files.strays.map { ($0, String?.none) }
        for (file, hash) in orphans.sorted(by: { $0.0.path < $1.0.path }) {
            if writerMayBeActive, file.modified > cutoff { continue }
            if file.isTemporaryOfLiveProcess { continue }
            context.add(.blobOrphaned) {
                var finding = CheckFinding(
                    code: .blobOrphaned,
                    message: hash == nil ? "\(file.path) is in the blob folder but is not a blob file" : "no record refers to the external value \(file.path)",
                    hint: "left by a crash between writing the file and its record, or by a deletion; `storekeep repair` removes it")
                finding.file = file.path
                finding.blobHash = hash
                return finding
            }
        }
    }

    /// SHA-256 of a file, read in 1 MiB pieces; `nil` when it cannot be read.
    static func hashFile(atPath path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = ObjectModel.SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(chunk)
            }
        } catch {
            return nil
        }
        return hasher.finalizeHex()
    }

    private static func badReference(_ context: CheckContext, gid: String, entity: String, property: String, table: String, value: String) {
        context.add(.blobBadReference, entity: entity, property: property) {
            var finding = CheckFinding(
                code: .blobBadReference, entity: entity, globalIDs: [gid],
                message: "\(entity) \(gid): \(property) holds the text '\(value.prefix(80))', which is not a sha256:<64 hex digits> reference",
                hint: "the value was written around storekeep; restore the record from a backup or set the value again in the app")
            finding.property = property
            finding.table = table
            finding.value = String(value.prefix(200))
            return finding
        }
    }
}
