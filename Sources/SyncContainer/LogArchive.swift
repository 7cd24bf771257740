import CArchive
import Foundation
import ObjectModel

/// Writes, reads, verifies and restores log archives: tar files compressed with zstd through
/// libarchive, whose first entry is an ``ArchiveManifest`` (`docs/container.md`, "Archives").
public enum LogArchive {
    /// The size of the blocks files and entries are read and written in: what an archive's write,
    /// verify or restore holds in memory, whatever the size of its entries.
    static let blockSize = 1 << 20

    /// Writes an archive of `files` (each an entry path and the container file it is read from,
    /// through `storage`) to the local file `path`: under a temporary name, fsynced, renamed into
    /// place, the folder fsynced. The manifest's checksums are computed first, from the files
    /// themselves; each file is read a block at a time (``blockSize``), for its checksum, then
    /// into the archive.
    ///
    /// - Returns: the manifest written.
    /// - Throws: ``ContainerError``: `missingLog` when a file is gone, `io` when one changed size
    ///   while it was archived; the temporary file removed.
    public static func write(to path: String, manifest base: ArchiveManifest, files: [(entry: ArchiveManifest.Entry, source: String)],
                             storage: any ContainerStorage = FolderStorage()) throws -> ArchiveManifest {
        var manifest = base
        manifest.entries = []
        for (entry, source) in files {
            var checked = entry
            var hasher = SHA256()
            var bytes: Int64 = 0
            try contents(of: source, in: storage) { block in
                hasher.update(bytes: block)
                bytes += Int64(block.count)
            }
            checked.sha256 = hasher.finalizeHex()
            checked.bytes = bytes
            manifest.entries.append(checked)
        }
        let temporary = DurableFile.temporaryPath(for: path)
        DurableFile.removeAbandonedTemporaries(of: path)
        guard let archive = archive_write_new() else { throw ContainerError(.io, path: path, message: "libarchive cannot start an archive") }
        defer { archive_write_free(archive) }
        archive_write_add_filter_zstd(archive)
        // Logs are compressed already: the fastest level saves what is left without costing time.
        _ = archive_write_set_filter_option(archive, "zstd", "compression-level", "1")
        _ = archive_write_set_filter_option(archive, "zstd", "threads", "2")
        archive_write_set_format_pax_restricted(archive)
        archive_write_set_bytes_in_last_block(archive, 1)
        guard archive_write_open_filename(archive, temporary) == ARCHIVE_OK else {
            throw failure(archive, path: path, doing: "create the archive")
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let manifestBytes = try encoder.encode(manifest)
            try writeEntry(archive, name: ArchiveManifest.entryName, size: Int64(manifestBytes.count), path: path) { sink in
                try manifestBytes.withUnsafeBytes { try sink($0) }
            }
            for (index, (_, source)) in files.enumerated() {
                let entry = manifest.entries[index]
                try writeEntry(archive, name: entry.path, size: entry.bytes, path: path) { sink in
                    try contents(of: source, in: storage, sink)
                }
                try DurableFile.reach(.partWritten, path: path)
            }
            guard archive_write_close(archive) == ARCHIVE_OK else {
                throw failure(archive, path: path, doing: "finish the archive")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        do {
            try DurableFile.publish(temporary, as: path)
        } catch let failure as DurableFile.Failure {
            throw ContainerError(failure.isDiskFull ? .diskFull : .io, path: path, message: "cannot be made durable and put in place: \(failure.reason)",
                                 hint: "check free space and permissions where the archive goes")
        }
        return manifest
    }

    /// The manifest of the archive at `path` (its first entry: nothing else is read).
    public static func manifest(of path: String) throws -> ArchiveManifest {
        try read(path, stopAfterManifest: true) { _ in } entry: { _, _ in }
    }

    /// Reads every entry a block at a time (``blockSize``) and checks its checksum and size
    /// against the manifest, holding no entry whole.
    ///
    /// - Returns: the manifest.
    /// - Throws: ``ContainerError`` `damagedArchive` naming the first entry that does not match,
    ///   is missing, or is not listed; or the place where the archive is truncated.
    @discardableResult
    public static func verify(_ path: String) throws -> ArchiveManifest {
        try restore(path, into: nil, force: false, storage: FolderStorage())
    }

    /// Verifies the archive and writes every entry under `folder` (the namespace folder, through
    /// `storage`), in one reading of the archive: a file already there is refused, before
    /// anything is written, unless `force` (one that holds exactly the entry is kept). Each entry
    /// is staged (``ContainerStorage/stage(_:from:)``: a file under a name readers skip) as it
    /// comes out of the archive, a block at a time, its size checked on the way, and is read back
    /// on another thread while the next entries are decompressed, its SHA-256 compared with the
    /// manifest's (which checks the archive's entry and the write at once); only when every entry
    /// has matched is each made durable and given its name. A damaged or truncated archive leaves nothing behind: no
    /// file, no staged file, no folder the restore made.
    ///
    /// - Parameter folder: where to restore; `nil` only verifies (``verify(_:)``).
    /// - Returns: the manifest.
    /// - Throws: ``ContainerError``: `damagedArchive` (nothing written), `wouldOverwrite`, `io`.
    @discardableResult
    public static func restore(_ path: String, into folder: String?, force: Bool, storage: any ContainerStorage = FolderStorage()) throws -> ArchiveManifest {
        var alreadyThere = Set<String>()
        var staged: [(file: String, entry: ArchiveManifest.Entry)] = []
        var madeFolders: [String] = []
        var sweptFolders = Set<String>()
        // Each staged file is read back and checked while the next entries are decompressed.
        let readBack = StagedReadBack(storage: storage)
        do {
            // An entry that is staged is checked once, when its file is read back (the bytes on
            // disk against the manifest: the archive's entry and the write at once); one that is
            // not, as it is read.
            let manifest = try read(path, stopAfterManifest: false, hashing: { folder == nil || alreadyThere.contains($0.path) }) { found in
                // Refused before a single file is written. A file that already holds exactly the
                // entry (a rerun after a kill, a second archive that shares a baseline) is kept.
                guard let folder, !force else { return }
                for entry in found.entries {
                    let target = "\(folder)/\(entry.path)"
                    guard storage.attributes(of: target) != nil else { continue }
                    guard try checksum(of: target, in: storage) == entry.sha256 else {
                        throw ContainerError(.wouldOverwrite, path: target, message: "exists with other content; restore does not overwrite anything",
                                             hint: "move it away, or give --force to overwrite")
                    }
                    alreadyThere.insert(entry.path)
                }
            } entry: { entry, blocks in
                guard let folder, !alreadyThere.contains(entry.path) else { return try blocks { _ in } }
                let target = "\(folder)/\(entry.path)"
                // What a killed restore (or any killed writer) left in this folder goes first.
                let targetFolder = URL(fileURLWithPath: target).deletingLastPathComponent().path
                if sweptFolders.insert(targetFolder).inserted { DurableFile.removeTemporariesOfGoneProcesses(in: targetFolder) }
                madeFolders += missingFolders(of: target)
                let file = try storage.stage(target) { sink in try withoutActuallyEscaping(sink) { try blocks($0) } }
                staged.append((file, entry))
                readBack.check(file, entry: entry.path, expected: entry.sha256)
            }
            guard let folder else { return manifest }
            let named = staged.map { (staged: $0.file, path: "\(folder)/\($0.entry.path)") }
            // The disk makes the staged files durable while the last of them are read back.
            let settling = BackgroundWork { try storage.makeDurable(staged: named) }
            let mismatch = readBack.firstMismatch()
            let settled = Result { try settling.wait() }
            // Every entry is whole in its staged file, and was read back: now each is given its name.
            if let mismatch {
                throw damaged(path, "entry '\(mismatch.entry)' \(mismatch.problem)")
            }
            try settled.get()
            // Without --force, a file that appeared since the check above (another process
            // writes the container) is refused by the publish itself.
            try storage.publish(staged: named, replacing: force)
            return manifest
        } catch {
            _ = readBack.firstMismatch()
            for (file, _) in staged { storage.discard(staged: file) }
            // The folders made for the staged files go too (an empty peer folder would count as a
            // peer), deepest first; rmdir leaves one that holds anything.
            for made in madeFolders.sorted(by: { $0.count > $1.count }) { rmdir(made) }
            throw error
        }
    }

    /// Whether an entry path is one a namespace folder holds (no `..`, no absolute path).
    static func isSafeEntryPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0] == "peers", SyncName.isValid(parts[1]), parts[2] == "logs", LogName(fileName: parts[3]) != nil { return true }
        if parts.count == 2, parts[0] == "baselines", parts[1].hasSuffix(".skbase"), SyncName.isValid(parts[1]) { return true }
        return false
    }

    // MARK: - libarchive

    private static func writeEntry(_ archive: OpaquePointer, name: String, size: Int64, path: String,
                                   body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        guard let entry = archive_entry_new() else { throw ContainerError(.io, path: path, message: "libarchive cannot make an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname(entry, name)
        archive_entry_set_size(entry, size)
        archive_entry_set_filetype(entry, 0o100000)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, time(nil), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw failure(archive, path: path, doing: "write the entry \(name)") }
        var written: Int64 = 0
        let changed = { (bytes: Int64, more: Bool) in
            ContainerError(.io, path: path, message: "entry \(name) changed while it was archived (\(bytes) bytes\(more ? " or more" : ""), not \(size))",
                           hint: "run the archive again")
        }
        try body { chunk in
            guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
            // A file that grew is refused before libarchive cuts it to the size in its header.
            guard written + Int64(chunk.count) <= size else { throw changed(written + Int64(chunk.count), true) }
            var offset = 0
            while offset < chunk.count {
                let count = archive_write_data(archive, base + offset, chunk.count - offset)
                guard count > 0 else { throw failure(archive, path: path, doing: "write the entry \(name)") }
                offset += count
            }
            written += Int64(chunk.count)
        }
        guard written == size else { throw changed(written, false) }
    }

    /// The largest manifest entry read: one larger is damage, not a manifest.
    static let manifestLimit = 64 << 20

    /// Hands an entry's blocks, hashed and checked on the way, to a sink (one that drops them, when
    /// only checked); it throws `damagedArchive` when the entry does not match the manifest.
    typealias EntryBlocks = ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

    /// Reads the archive in one pass: the manifest first (returned, and handed to `manifest`),
    /// then each entry a block at a time through the ``EntryBlocks`` handed to `entry` with the
    /// manifest's entry, which checks its checksum and size when its last block has been handed
    /// on (an entry `entry` leaves unread is read and checked afterwards). The blocks are
    /// libarchive's own decompression buffers, read ``blockSize`` bytes of archive at a time.
    ///
    /// - Throws: `damagedArchive` for an archive that is not one, a manifest that is not
    ///   readable, an entry that is not listed, listed twice, damaged or missing; what the
    ///   closures throw.
    @discardableResult
    private static func read(_ path: String, stopAfterManifest: Bool, hashing: (ArchiveManifest.Entry) -> Bool = { _ in true },
                             manifest: (ArchiveManifest) throws -> Void,
                             entry: (ArchiveManifest.Entry, EntryBlocks) throws -> Void) throws -> ArchiveManifest {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ContainerError(.notFound, path: path, message: "no such archive", hint: "check the path")
        }
        guard let archive = archive_read_new() else { throw ContainerError(.io, path: path, message: "libarchive cannot start reading") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_zstd(archive)
        archive_read_support_format_tar(archive)
        guard archive_read_open_filename(archive, path, blockSize) == ARCHIVE_OK else {
            throw damaged(path, "it is not a zstd-compressed tar archive (\(message(archive)))")
        }
        /// Hands every block of the current entry `name` to `body`, where libarchive decompressed it
        /// (no copy). The holes of a sparse entry (storekeep writes none; another tar may) are
        /// handed on as the zeros they stand for.
        func data(of name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            var position: Int64 = 0
            while true {
                var block: UnsafeRawPointer?
                var count = 0
                var offset: la_int64_t = 0
                let status = archive_read_data_block(archive, &block, &count, &offset)
                guard status == ARCHIVE_OK || status == ARCHIVE_EOF else {
                    throw damaged(path, "entry '\(name)' is truncated or damaged (\(message(archive)))")
                }
                if status == ARCHIVE_EOF { return try handZeros(offset - position, to: body) }
                guard offset >= position else { throw damaged(path, "entry '\(name)' has blocks out of order") }
                try handZeros(offset - position, to: body)
                position = offset
                if let block, count > 0 { try body(UnsafeRawBufferPointer(start: block, count: count)) }
                position += Int64(count)
            }
        }
        var found: ArchiveManifest?
        var expected: [String: ArchiveManifest.Entry] = [:]
        var previous: String?
        var header: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &header)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let header else {
                let place = previous.map { "past entry '\($0)'" } ?? "past its start"
                throw damaged(path, "it cannot be read \(place) (\(message(archive)))")
            }
            let name = archive_entry_pathname(header).map { String(cString: $0) } ?? ""
            previous = name
            guard found != nil else {
                found = try readManifest(name: name, size: archive_entry_size(header), path: path) { try data(of: name, $0) }
                for listed in found?.entries ?? [] {
                    guard isSafeEntryPath(listed.path) else { throw damaged(path, "entry '\(listed.path)' is not a path a container holds") }
                    expected[listed.path] = listed
                }
                try manifest(found!)
                if stopAfterManifest { return found! }
                continue
            }
            guard let listed = expected.removeValue(forKey: name) else {
                throw damaged(path, "entry '\(name)' is not listed in its manifest, or is in it twice")
            }
            var checked = false
            let hashed = hashing(listed)
            let blocks: EntryBlocks = { sink in
                var hasher = SHA256()
                var bytes: Int64 = 0
                try data(of: name) { block in
                    if hashed { hasher.update(bytes: block) }
                    bytes += Int64(block.count)
                    // Stopped at once: a hostile entry (a sparse one's hole above all) can stand for
                    // far more than its manifest says, which would be written until the disk is full.
                    guard bytes <= listed.bytes else { throw damaged(path, "entry '\(name)' is larger than its manifest says (\(listed.bytes) bytes)") }
                    try sink(block)
                }
                let matches = hashed ? hasher.finalizeHex() == listed.sha256 : true
                guard bytes == listed.bytes, matches else {
                    throw damaged(path, "entry '\(name)' does not match its checksum")
                }
                checked = true
            }
            try entry(listed, blocks)
            if !checked { try blocks { _ in } }
        }
        guard let found else { throw damaged(path, "it holds no entries") }
        if let missing = found.entries.first(where: { expected[$0.path] != nil }) {
            throw damaged(path, "entry '\(missing.path)' listed in its manifest is missing (the archive is truncated?)")
        }
        return found
    }

    /// Hands `count` zero bytes to `body`, a block at a time.
    private static func handZeros(_ count: Int64, to body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard count > 0 else { return }
        let zeros = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(count, Int64(blockSize))), alignment: 16)
        defer { zeros.deallocate() }
        zeros.initializeMemory(as: UInt8.self, repeating: 0)
        var left = count
        while left > 0 {
            let step = Int(min(left, Int64(zeros.count)))
            try body(UnsafeRawBufferPointer(rebasing: zeros[0..<step]))
            left -= Int64(step)
        }
    }

    /// The manifest from the archive's first entry, `name` of `size` bytes, whose blocks
    /// `blocks` hands on.
    private static func readManifest(name: String, size: Int64, path: String,
                                     blocks: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> ArchiveManifest {
        let unreadable = damaged(path, "its first entry is not a readable \(ArchiveManifest.entryName)")
        guard name == ArchiveManifest.entryName, size <= manifestLimit else { throw unreadable }
        var bytes = Data()
        try blocks { block in
            guard bytes.count + block.count <= manifestLimit else { throw unreadable }
            bytes.append(contentsOf: block)
        }
        guard let found = try? JSONDecoder().decode(ArchiveManifest.self, from: bytes), found.format == ArchiveManifest.currentFormat else {
            throw unreadable
        }
        return found
    }

    /// Hands the container file `path` to `body` a block at a time.
    ///
    /// - Throws: `missingLog` when it is gone.
    private static func contents(of path: String, in storage: any ContainerStorage, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard try storage.read(path, inBlocksOf: blockSize, body) else {
            throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run the archive again")
        }
    }

    /// The SHA-256 of the container file `path`, read a block at a time (`nil` when it is gone).
    static func checksum(of path: String, in storage: any ContainerStorage) throws -> String? {
        var hasher = SHA256()
        guard try storage.read(path, inBlocksOf: blockSize, { hasher.update(bytes: $0) }) else { return nil }
        return hasher.finalizeHex()
    }

    /// The folders above `path` that do not exist yet, outermost first: those a write of `path`
    /// makes (none in a storage without folders).
    private static func missingFolders(of path: String) -> [String] {
        var missing: [String] = []
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        while folder != "/", !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            missing.insert(folder, at: 0)
            folder = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        }
        return missing
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "no detail"
    }

    /// A failure of the archive `path` (named by its final name, which is what the operator knows),
    /// with the system's reason when libarchive kept one ("Write error" alone says too little).
    private static func failure(_ archive: OpaquePointer, path: String, doing: String) -> ContainerError {
        let code = archive_errno(archive)
        let reason = code > 0 ? "\(message(archive)): \(String(cString: strerror(code)))" : message(archive)
        guard code != ENOSPC, code != EDQUOT else {
            return ContainerError(.diskFull, path: path, message: "cannot \(doing): the disk is full (\(reason))",
                                  hint: "free space where the archive goes, then run the same command again")
        }
        return ContainerError(.io, path: path, message: "cannot \(doing): \(reason)", hint: "check the disk and the folder's permissions")
    }

    private static func damaged(_ path: String, _ problem: String) -> ContainerError {
        ContainerError(.damagedArchive, path: path, message: "is not a usable archive: \(problem)",
                       hint: "use another copy of the archive; storekeep never restores from a damaged one")
    }
}
