import Foundation
import ObjectModel

/// Reads a framed file (``FramedFile``) a block at a time through a container's storage, so that
/// a file of any size is read with the memory of one block: the signature, the header and the
/// body's size are checked as they pass, the body is handed on block by block, and every byte
/// before the trailer is hashed and compared with it at the end.
///
/// What a caller did with the body before the end is not yet checked by the checksum: a caller
/// that writes it somewhere undoes that when this throws (a merge runs in one SQLite transaction).
final class FramedFileStreamReader<H: FramedFile.Header> {
    private enum Stage { case prefix, header, body, trailer }

    private let signature: [UInt8]
    private let what: String
    private let path: String
    private var stage = Stage.prefix
    private var gathered: [UInt8] = []
    private var headerLength = 0
    private var header: H?
    private var bodyLeft = 0
    private var position = 0
    private var digest: SHA256? = SHA256()

    private init(signature: [UInt8], what: String, path: String) {
        self.signature = signature
        self.what = what
        self.path = path
    }

    /// Reads the framed file at `path` from `storage`, handing its stored body (compressed or not,
    /// as its header says) to `body` a block at a time.
    ///
    /// - Returns: the header and the SHA-256 of the whole file.
    /// - Throws: ``ContainerError`` `damagedLog` (naming `path` and what is wrong) when it is not a
    ///   whole framed file of this kind, `missingLog` when it is gone; what `body` throws.
    static func read(_ path: String, storage: any ContainerStorage, signature: [UInt8], what: String,
                     body: (H, UnsafeRawBufferPointer) throws -> Void) throws -> (header: H, sha256: String) {
        let reader = FramedFileStreamReader(signature: signature, what: what, path: path)
        guard try storage.read(path, inBlocksOf: BlockFileReader.blockBytes, { try reader.consume($0, body: body) }) else {
            throw ContainerError(.missingLog, path: path, message: "is gone", hint: "run sync again: a newer one may have replaced it")
        }
        return try reader.finish()
    }

    /// The error for a file that is not a usable framed file of this kind.
    func damaged(_ problem: String) -> ContainerError {
        FramedFile.damaged(what, path: path, problem)
    }

    private func consume(_ block: UnsafeRawBufferPointer, body: (H, UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        while offset < block.count {
            let available = block.count - offset
            let wanted: Int
            switch stage {
            case .prefix: wanted = signature.count + 4 - gathered.count
            case .header: wanted = headerLength - gathered.count
            case .body: wanted = bodyLeft
            case .trailer: wanted = 32 - gathered.count
            }
            guard wanted > 0 else { throw damaged("it runs past its checksum (longer than its header says)") }
            let count = min(available, wanted)
            let slice = UnsafeRawBufferPointer(rebasing: block[offset..<(offset + count)])
            if stage != .trailer { digest?.update(bytes: slice) }
            if stage == .body, let header {
                try body(header, slice)
                bodyLeft -= count
            } else {
                gathered.append(contentsOf: slice)
            }
            offset += count
            position += count
            try advanceIfComplete()
        }
    }

    private func advanceIfComplete() throws {
        switch stage {
        case .prefix where gathered.count == signature.count + 4:
            guard Array(gathered.prefix(signature.count)) == signature else { throw damaged("it does not start with the \(what) signature") }
            headerLength = 0
            for index in 0..<4 { headerLength |= Int(gathered[signature.count + index]) << (8 * index) }
            guard headerLength > 0, headerLength < 1 << 20 else { throw damaged("its header length (\(headerLength) bytes) is not a header's") }
            gathered.removeAll(keepingCapacity: true)
            stage = .header
        case .header where gathered.count == headerLength:
            guard let decoded = try? JSONDecoder().decode(H.self, from: Data(gathered)) else { throw damaged("its header is not readable JSON") }
            guard decoded.bodyBytes >= 0, decoded.rawBytes >= 0 else { throw damaged("its header gives a negative size") }
            guard decoded.compression == "none" || decoded.compression == "zstd" else {
                throw damaged("its compression '\(decoded.compression)' is unknown")
            }
            header = decoded
            bodyLeft = decoded.bodyBytes
            gathered.removeAll(keepingCapacity: true)
            stage = bodyLeft == 0 ? .trailer : .body
        case .body where bodyLeft == 0:
            stage = .trailer
        default:
            break
        }
    }

    private func finish() throws -> (header: H, sha256: String) {
        guard stage == .trailer, gathered.count == 32, let header else {
            throw damaged("it ends after \(position) bytes, before its checksum (truncated?)")
        }
        guard let digest = digest.take() else { throw damaged("it was read twice") }
        var whole = digest.copy()
        guard digest.finalize() == gathered else {
            throw damaged("its checksum does not match its content (truncated or changed)")
        }
        gathered.withUnsafeBytes { whole.update(bytes: $0) }
        return (header, whole.finalizeHex())
    }
}
