import CArchive
import Foundation
import ObjectModel

/// Writes, reads, verifies and restores log archives: tar files compressed with zstd through
/// libarchive, whose first entry is an ``ArchiveManifest`` (`docs/container.md`, "Archives").
public enum LogArchive {
    /// Writes an archive of `files` (each an entry path and the container file it is read from,
    /// through `storage`) to the local file `path`: under a temporary name, fsynced, renamed into
    /// place, the folder fsynced. The manifest's checksums are computed first, from the files themselves.
    ///
    /// - Returns: the manifest written.
    public static func write(to path: String, manifest base: ArchiveManifest, files: [(entry: ArchiveManifest.Entry, source: String)],
                             storage: any ContainerStorage = FolderStorage()) throws -> ArchiveManifest {
        var manifest = base
        manifest.entries = []
        for (entry, source) in files {
            var checked = entry
            let data = try contents(of: source, in: storage)
            checked.sha256 = SHA256.hexDigest(of: data)
            checked.bytes = Int64(data.count)
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
            throw failure(archive, path: temporary, doing: "create the archive")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let manifestBytes = try encoder.encode(manifest)
        try writeEntry(archive, name: ArchiveManifest.entryName, size: Int64(manifestBytes.count), path: temporary) { sink in
            try manifestBytes.withUnsafeBytes { try sink($0) }
        }
        for (index, (_, source)) in files.enumerated() {
            let entry = manifest.entries[index]
            try writeEntry(archive, name: entry.path, size: entry.bytes, path: temporary) { sink in
                try contents(of: source, in: storage).withUnsafeBytes { try sink($0) }
            }
            try DurableFile.reach(.partWritten, path: path)
        }
        guard archive_write_close(archive) == ARCHIVE_OK else {
            unlink(temporary)
            throw failure(archive, path: temporary, doing: "finish the archive")
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
        var result: ArchiveManifest?
        try read(path, stopAfterManifest: true) { manifest in result = manifest } entry: { _, _ in }
        guard let result else { throw damaged(path, "it has no manifest") }
        return result
    }

    /// Reads every entry and checks its checksum and size against the manifest.
    ///
    /// - Returns: the manifest.
    /// - Throws: ``ContainerError`` `damagedArchive` naming the first entry that does not match,
    ///   is missing, or is not listed; or the place where the archive is truncated.
    @discardableResult
    public static func verify(_ path: String) throws -> ArchiveManifest {
        try restore(path, into: nil, force: false, storage: FolderStorage())
    }

    /// Verifies the archive, and writes every entry under `folder` (the namespace folder, through
    /// `storage`), each durably; a file already there is refused, before anything is written,
    /// unless `force`. Every file written is read back and checked.
    ///
    /// - Returns: the manifest.
    @discardableResult
    public static func restore(_ path: String, into folder: String?, force: Bool, storage: any ContainerStorage = FolderStorage()) throws -> ArchiveManifest {
        var manifest: ArchiveManifest?
        var seen = Set<String>()
        var alreadyThere = Set<String>()
        try read(path, stopAfterManifest: false) { found in
            manifest = found
            for entry in found.entries {
                guard isSafeEntryPath(entry.path) else { throw damaged(path, "entry '\(entry.path)' is not a path a container holds") }
            }
            // Refused before a single file is written. A file that already holds exactly the
            // entry (a rerun after a kill, a second archive that shares a baseline) is kept.
            guard let folder, !force else { return }
            for entry in found.entries where storage.attributes(of: "\(folder)/\(entry.path)") != nil {
                let existing = try storage.read("\(folder)/\(entry.path)")
                guard let existing, SHA256.hexDigest(of: existing) == entry.sha256 else {
                    throw ContainerError(.wouldOverwrite, path: "\(folder)/\(entry.path)",
                                         message: "exists with other content; restore does not overwrite anything",
                                         hint: "move it away, or give --force to overwrite")
                }
                alreadyThere.insert(entry.path)
            }
        } entry: { name, data in
            guard let manifest, let expected = manifest.entries.first(where: { $0.path == name }) else {
                throw damaged(path, "entry '\(name)' is not listed in its manifest")
            }
            let sha = SHA256.hexDigest(of: data)
            guard sha == expected.sha256, Int64(data.count) == expected.bytes else {
                throw damaged(path, "entry '\(name)' does not match its checksum")
            }
            seen.insert(name)
            guard let folder, !alreadyThere.contains(name) else { return }
            let target = "\(folder)/\(name)"
            // Without --force, a file that appeared since the check above (another process writes
            // the container) is refused by the write itself.
            try storage.write(data, to: target, replacing: force)
            guard let written = try storage.read(target), SHA256.hexDigest(of: written) == sha else {
                throw ContainerError(.io, path: target, message: "does not read back as written", hint: "check the disk")
            }
        }
        guard let manifest else { throw damaged(path, "it has no manifest") }
        if let missing = manifest.entries.first(where: { !seen.contains($0.path) }) {
            throw damaged(path, "entry '\(missing.path)' listed in its manifest is missing (the archive is truncated?)")
        }
        return manifest
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
        try body { chunk in
            guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
            var offset = 0
            while offset < chunk.count {
                let count = archive_write_data(archive, base + offset, chunk.count - offset)
                guard count > 0 else { throw failure(archive, path: path, doing: "write the entry \(name)") }
                offset += count
            }
            written += Int64(chunk.count)
        }
        guard written == size else {
            throw ContainerError(.io, path: path, message: "entry \(name) changed while it was archived (\(written) bytes, not \(size))",
                                 hint: "run the archive again")
        }
    }

    /// Reads the archive: the manifest first, then each entry whole.
    private static func read(_ path: String, stopAfterManifest: Bool, manifest: (ArchiveManifest) throws -> Void,
                             entry: (String, Data) throws -> Void) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ContainerError(.notFound, path: path, message: "no such archive", hint: "check the path")
        }
        guard let archive = archive_read_new() else { throw ContainerError(.io, path: path, message: "libarchive cannot start reading") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_zstd(archive)
        archive_read_support_format_tar(archive)
        guard archive_read_open_filename(archive, path, 1 << 20) == ARCHIVE_OK else {
            throw damaged(path, "it is not a zstd-compressed tar archive (\(message(archive)))")
        }
        var first = true
        var previous: String?
        var header: OpaquePointer?
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let status = archive_read_next_header(archive, &header)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let header else {
                let place = previous.map { "past entry '\($0)'" } ?? "past its start"
                throw damaged(path, "it cannot be read \(place) (\(message(archive)))")
            }
            let name = archive_entry_pathname(header).map { String(cString: $0) } ?? ""
            previous = name
            var data = Data()
            let expected = archive_entry_size(header)
            if expected > 0 { data.reserveCapacity(Int(min(expected, 1 << 30))) }
            while true {
                let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                if count == 0 { break }
                guard count > 0 else { throw damaged(path, "entry '\(name)' is truncated or damaged (\(message(archive)))") }
                buffer.withUnsafeBytes { data.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            if first {
                guard name == ArchiveManifest.entryName,
                      let found = try? JSONDecoder().decode(ArchiveManifest.self, from: data), found.format == ArchiveManifest.currentFormat else {
                    throw damaged(path, "its first entry is not a readable \(ArchiveManifest.entryName)")
                }
                try manifest(found)
                first = false
                if stopAfterManifest { return }
                continue
            }
            try entry(name, data)
        }
        if first { throw damaged(path, "it holds no entries") }
    }

    /// The bytes of the container file `path`.
    private static func contents(of path: String, in storage: any ContainerStorage) throws -> Data {
        guard let data = try storage.read(path) else {
            throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run the archive again")
        }
        return data
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "no detail"
    }

    private static func failure(_ archive: OpaquePointer, path: String, doing: String) -> ContainerError {
        let code = archive_errno(archive)
        return ContainerError(code == ENOSPC ? .diskFull : .io, path: path, message: "cannot \(doing): \(message(archive))",
                              hint: code == ENOSPC ? "free space where the archive goes, then run the same command again" : "check the disk and the folder's permissions")
    }

    private static func damaged(_ path: String, _ problem: String) -> ContainerError {
        ContainerError(.damagedArchive, path: path, message: "is not a usable archive: \(problem)",
                       hint: "use another copy of the archive; storekeep never restores from a damaged one")
    }
}
