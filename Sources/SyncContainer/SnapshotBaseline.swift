import Foundation
import ObjectModel

/// A snapshot baseline (format 2, `docs/container.md`, "Baselines"): a copy of a store's SQLite
/// database file and of its blob files, framed like every container file, so that a rekey or an
/// archive writes a baseline at the speed of a file copy instead of encoding every record.
///
/// ```
/// signature        8 bytes ("SKBAS2\n\0")
/// header length    4 bytes, little-endian
/// header           UTF-8 JSON (a BaselineHeader: format 2, snapshotBytes, blobFiles, bodyBytes)
/// database         snapshotBytes bytes: the store's SQLite database file
/// blob*            SHA-256 of the blob (32 bytes), size (8 bytes, little-endian), its bytes
/// SHA-256          32 bytes, of every byte before it
/// ```
///
/// The writer streams: memory stays at one block, whatever the size of the store and its blobs.
public enum SnapshotBaseline {
    /// The first eight bytes of a snapshot baseline.
    public static let signature: [UInt8] = Array("SKBAS2\n\0".utf8)

    /// The bytes every blob takes before its content: digest and size.
    static let blobPrefixBytes = 40

    /// Writes a snapshot baseline to `path` durably (temporary name, fsync, published without
    /// replacing: a baseline of the same name is the same content, and is kept), and reads it back
    /// and checks it before it is published: every byte before the trailer, hashed from the file
    /// written, must give the checksum computed from the sources, and the file must end with it.
    /// The database's copy is read back while its source is still being hashed, the rest while the
    /// file is fsynced. One found already there is checked with ``verify(_:)``.
    ///
    /// - Parameters:
    ///   - database: the store's database file, which must not change while it is copied (the
    ///     caller holds a read transaction on a checkpointed store); it must be `databaseBytes` long.
    /// - Returns: the SHA-256 of the whole file (what a redirect names), as read back.
    /// - Throws: ``ContainerError`` (`io`, `diskFull`; `io` when a source changed size while copied).
    public static func write(header base: BaselineHeader, database: String, databaseBytes: Int64, blobs: [BlobFile], to path: String) throws -> String {
        try write(header: base, database: database, databaseBytes: databaseBytes, blobs: blobs, to: path) { _, _ in }
    }

    /// ``write(header:database:databaseBytes:blobs:to:)``, calling `partWritten` with each part's
    /// name (`database`, then `blobs`) and the temporary file once that part is in it: where tests
    /// change what was written before it is read back.
    static func write(header base: BaselineHeader, database: String, databaseBytes: Int64, blobs: [BlobFile], to path: String,
                      partWritten: (String, String) throws -> Void) throws -> String {
        var header = base
        header.format = BaselineHeader.snapshotFormat
        header.compression = "none"
        header.snapshotBytes = databaseBytes
        header.blobFiles = blobs.count
        let body = blobs.reduce(databaseBytes) { $0 + Int64(blobPrefixBytes) + $1.bytes }
        guard body <= Int64(Int.max) else { throw ContainerError(.io, path: path, message: "the baseline would be too large", hint: "") }
        header.bodyBytes = Int(body)
        header.rawBytes = Int(body)
        let prefix = try FramedFile.prefix(signature: signature, header: header)
        try SyncNamespace.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        if FileManager.default.fileExists(atPath: path) {
            // Published by an earlier run that was stopped: the same name covers the same content.
            return try verify(path).sha256
        }
        let temporary = DurableFile.temporaryPath(for: path)
        let output = try BlockFileWriter(creating: temporary, for: path)
        // One digest for the whole file, handed to the hashing thread and back in its box.
        let box = DigestBox(SHA256())
        do {
            try prefix.withUnsafeBytes { bytes in
                box.digest?.update(bytes: bytes)
                try output.write(bytes)
            }
            // The database is copied by the kernel while another thread hashes it (both read the
            // same file, which the caller holds still), and the copy is read back (hashed from the
            // file written) on a third while the source is still being hashed.
            let hashing = BackgroundWork { try BlockFileReader.hash(database, bytes: databaseBytes, into: box) }
            let copied = Result { try output.append(copyingFile: database, bytes: databaseBytes) }
            let changed = Result { try partWritten("database", temporary) }
            let copiedEnd = Int64(prefix.count) + databaseBytes
            let readBox = DigestBox(SHA256())
            let readingBack = BackgroundWork { () throws -> Void in
                try copied.get()
                try BlockFileReader.hash(temporary, range: 0..<copiedEnd, into: readBox)
            }
            defer { _ = try? readingBack.wait() }
            try hashing.wait()
            try copied.get()
            try changed.get()
            for blob in blobs {
                guard let raw = SHA256.digestBytes(ofHex: blob.digest) else {
                    throw ContainerError(.io, path: blob.path, message: "is not named by a SHA-256", hint: "run `storekeep check` on the store")
                }
                var blobPrefix = raw
                withUnsafeBytes(of: UInt64(blob.bytes).littleEndian) { blobPrefix.append(contentsOf: $0) }
                try blobPrefix.withUnsafeBytes { bytes in
                    box.digest?.update(bytes: bytes)
                    try output.write(bytes)
                }
                try BlockFileReader.hash(blob.path, bytes: blob.bytes, into: box, copyingTo: output)
            }
            try output.flushBuffer()
            try partWritten("blobs", temporary)
            guard let digest = box.digest.take() else { throw ContainerError(.io, path: path, message: "was not hashed", hint: "") }
            let whole = digest.copy()
            let trailer = digest.finalize()
            try trailer.withUnsafeBytes { try output.write($0) }
            var file = whole
            file.update(bytes: trailer.withUnsafeBytes { $0 })
            let expected = file.finalizeHex()
            let trailerStart = Int64(prefix.count) + body
            // The rest is read back while the file is fsynced: both wait on the disk, not on each other.
            try output.flushBuffer()
            // The writer is the syncing thread's alone until it is waited for: this one reads the file by its name.
            nonisolated(unsafe) let writer = output
            let syncing = BackgroundWork { try writer.finish() }
            let readBack = Result { () -> Bool in
                try readingBack.wait()
                try BlockFileReader.hash(temporary, range: copiedEnd..<trailerStart, into: readBox)
                // What was written before the trailer hashes to it, and the file ends with it.
                let onDisk = try BlockFileReader.bytes(of: temporary, at: trailerStart, count: trailer.count + 1)
                return readBox.digest.take()?.finalize() == trailer && onDisk == trailer
            }
            try syncing.wait()
            guard case .success(true) = readBack else {
                unlink(temporary)
                if case .failure(let error) = readBack { throw error }
                throw ContainerError(.io, path: path, message: "does not read back as written", hint: "check the disk or share, then run the same command again")
            }
            do {
                try DurableFile.publish(temporary, as: path, replacing: false)
            } catch let failure as DurableFile.Failure where failure.code == EEXIST {
                return try verify(path).sha256
            }
            return expected
        } catch let failure as DurableFile.Failure {
            unlink(temporary)
            throw ContainerError.writing(failure)
        } catch {
            output.abandon()
            unlink(temporary)
            throw error
        }
    }

    /// Reads the whole file and checks its checksum and sizes, a block at a time.
    ///
    /// - Returns: its header and the SHA-256 of the whole file.
    /// - Throws: ``ContainerError`` `damagedLog` naming what is wrong; `missingLog` when it is gone.
    public static func verify(_ path: String) throws -> (header: BaselineHeader, sha256: String) {
        let checked = try read(path, database: nil)
        return (checked.header, checked.sha256)
    }

    /// Reads and checks the baseline at `path`, writing its database file to `database`; its blob
    /// files stay where they are in the baseline, read from there by digest (each read checked
    /// against its digest). When the checksum does not match, the database file is removed.
    ///
    /// - Returns: its header, and its blobs.
    /// - Throws: ``ContainerError`` `damagedLog` naming what is wrong; `missingLog` when it is gone.
    public static func extract(_ path: String, database: String) throws -> (header: BaselineHeader, blobs: PackedBlobs) {
        let checked = try read(path, database: database)
        do {
            return (checked.header, try PackedBlobs(path: path, places: checked.places))
        } catch let failure as DurableFile.Failure {
            unlink(database)
            throw ContainerError(.missingLog, path: path, message: "cannot be opened again to read its blobs: \(failure.reason)",
                                 hint: "run sync again: a newer baseline may have replaced it")
        }
    }

    /// Reads and checks the baseline at `path`, writing its database file to `database` when given
    /// and listing where its blobs lie.
    private static func read(_ path: String, database: String?) throws
        -> (header: BaselineHeader, sha256: String, places: [PackedBlobs.Digest: PackedBlobs.Place]) {
        guard let facts = try? FileManager.default.attributesOfItem(atPath: path), let size = (facts[.size] as? NSNumber)?.int64Value else {
            throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run sync again: a newer baseline may have replaced it")
        }
        guard let (header, headerLength) = FramedFile.headerAndLength(signature: signature, as: BaselineHeader.self,
                                                                       readingFirst: { try? FolderStorage().read(path, limit: $0) }) else {
            throw damaged(path, "it does not start with a readable snapshot baseline header")
        }
        guard header.format == BaselineHeader.snapshotFormat, header.compression == "none", let snapshotBytes = header.snapshotBytes, snapshotBytes >= 0,
              let blobFiles = header.blobFiles, blobFiles >= 0, header.bodyBytes >= 0, Int64(header.bodyBytes) >= snapshotBytes else {
            throw damaged(path, "its header does not describe a snapshot (format \(header.format))")
        }
        let bodyStart = Int64(signature.count + 4 + headerLength)
        guard size == bodyStart + Int64(header.bodyBytes) + 32 else {
            throw damaged(path, "it is \(size) bytes long, not the \(bodyStart + Int64(header.bodyBytes) + 32) its header says (truncated?)")
        }
        let splitter = SnapshotBaselineSplitter(path: path, bodyStart: bodyStart, snapshotBytes: snapshotBytes, blobFiles: blobFiles,
                                                end: size - 32, database: database)
        do {
            let sha = try splitter.run()
            return (header, sha, splitter.places)
        } catch {
            splitter.removeWritten()
            throw error
        }
    }

    static func damaged(_ path: String, _ problem: String) -> ContainerError {
        FramedFile.damaged("baseline", path: path, problem)
    }
}
