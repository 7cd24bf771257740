import Foundation
import ObjectModel

/// Reads a snapshot baseline (``SnapshotBaseline``) a block at a time: hashes it, checks its
/// layout against its header, and, when given a database path, writes its database file out as it
/// passes and lists where each blob lies in the baseline (read there later, ``PackedBlobs``).
/// A baseline found damaged leaves nothing written.
final class SnapshotBaselineSplitter {
    private enum Part { case prefix, database, blobPrefix, blob, trailer }

    private let path: String
    private let blobFiles: Int
    private let end: Int64
    private let database: String?
    private var part = Part.prefix
    private var remaining: Int64
    private let snapshotBytes: Int64
    private var position: Int64 = 0
    private var blobsSeen = 0
    private var blobPrefix: [UInt8] = []
    private var trailer: [UInt8] = []
    private var output: BlockFileWriter?
    private var digest: SHA256? = SHA256()
    private var written: String?
    /// Where each blob lies in the baseline (listed only when the database is written out): the
    /// first of a digest that comes twice (a damaged or hostile file) is the one kept.
    private(set) var places: [PackedBlobs.Digest: PackedBlobs.Place] = [:]

    init(path: String, bodyStart: Int64, snapshotBytes: Int64, blobFiles: Int, end: Int64, database: String?) {
        self.path = path
        self.snapshotBytes = snapshotBytes
        self.blobFiles = blobFiles
        self.end = end
        self.database = database
        remaining = bodyStart
    }

    /// Reads the whole file; returns the SHA-256 of all of it.
    ///
    /// - Throws: ``ContainerError`` `damagedLog` when its layout or its checksum is wrong.
    func run() throws -> String {
        try BlockFileReader.forEachBlock(of: path) { block in
            let hashed = Int(max(0, min(Int64(block.count), end - position)))
            if hashed > 0 { digest?.update(bytes: UnsafeRawBufferPointer(rebasing: block[0..<hashed])) }
            try consume(block)
        }
        guard part == .trailer, trailer.count == 32, position == end + 32 else {
            throw SnapshotBaseline.damaged(path, "it ends before its last blob file (truncated?)")
        }
        guard let digest = digest.take() else { throw SnapshotBaseline.damaged(path, "it was read twice") }
        let whole = digest.copy()
        guard digest.finalize() == trailer else {
            throw SnapshotBaseline.damaged(path, "its checksum does not match its content (truncated or changed)")
        }
        var file = whole
        file.update(bytes: trailer.withUnsafeBytes { $0 })
        return file.finalizeHex()
    }

    /// Removes the database file it wrote.
    func removeWritten() {
        output?.abandon()
        output = nil
        if let written { unlink(written) }
    }

    private func consume(_ block: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < block.count {
            let available = block.count - offset
            switch part {
            case .prefix, .database, .blob:
                let count = Int(min(Int64(available), remaining))
                if count > 0, let output { try output.write(UnsafeRawBufferPointer(rebasing: block[offset..<(offset + count)])) }
                offset += count
                position += Int64(count)
                remaining -= Int64(count)
                if remaining == 0 { try advance() }
            case .blobPrefix:
                let count = min(available, SnapshotBaseline.blobPrefixBytes - blobPrefix.count)
                blobPrefix.append(contentsOf: block[offset..<(offset + count)])
                offset += count
                position += Int64(count)
                if blobPrefix.count == SnapshotBaseline.blobPrefixBytes { try startBlob() }
            case .trailer:
                let count = min(available, 32 - trailer.count)
                guard count > 0 else { throw SnapshotBaseline.damaged(path, "it runs past its checksum") }
                trailer.append(contentsOf: block[offset..<(offset + count)])
                offset += count
                position += Int64(count)
            }
        }
    }

    /// The current part is complete: on to the next.
    private func advance() throws {
        switch part {
        case .prefix:
            part = .database
            remaining = snapshotBytes
            if let database {
                output = try BlockFileWriter(creating: database, for: database)
                written = database
            }
            if remaining == 0 { try advance() }
        case .database, .blob:
            try output?.finish(syncing: false)
            output = nil
            if part == .blob { blobsSeen += 1 }
            if blobsSeen < blobFiles {
                guard position < end else { throw SnapshotBaseline.damaged(path, "it holds \(blobsSeen) blob files, not the \(blobFiles) its header says") }
                part = .blobPrefix
                blobPrefix.removeAll(keepingCapacity: true)
            } else {
                guard position == end else { throw SnapshotBaseline.damaged(path, "it holds more than the \(blobFiles) blob files its header says") }
                part = .trailer
            }
        case .blobPrefix, .trailer:
            break
        }
    }

    private func startBlob() throws {
        var size: UInt64 = 0
        for index in 0..<8 { size |= UInt64(blobPrefix[32 + index]) << (8 * UInt64(index)) }
        guard size <= UInt64(end - position) else {
            throw SnapshotBaseline.damaged(path, "blob file \(blobsSeen + 1) claims \(size) bytes, past the end of the baseline")
        }
        part = .blob
        remaining = Int64(size)
        if database != nil, let digest = PackedBlobs.Digest(bytes: blobPrefix[0..<32]), places[digest] == nil {
            places[digest] = PackedBlobs.Place(offset: position, bytes: remaining)
        }
        if remaining == 0 { try advance() }
    }
}
