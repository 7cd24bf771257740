import Foundation
import ObjectModel

/// The framing every binary file of a container shares (logs, baselines): a signature, a JSON
/// header, a body compressed with zstd when that pays, and the SHA-256 of all of it.
///
/// ```
/// signature               8 bytes ("SKLOG1\n\0", "SKBAS1\n\0")
/// header length           4 bytes, little-endian
/// header                  UTF-8 JSON
/// body                    bodyBytes bytes (zstd-compressed when compression is "zstd")
/// SHA-256                 32 bytes, of every byte before it
/// ```
enum FramedFile {
    /// What a header must say about its body.
    protocol Header: Codable {
        var compression: String { get set }
        var bodyBytes: Int { get set }
        var rawBytes: Int { get set }
    }

    /// The file's bytes.
    static func encode<H: Header>(signature: [UInt8], header: H, body: [UInt8]) throws -> [UInt8] {
        let parts = try frame(signature: signature, header: header, body: body)
        var file = parts.prefix
        file.reserveCapacity(file.count + parts.stored.count + parts.trailer.count)
        file += parts.stored
        file += parts.trailer
        return file
    }

    /// The file in its three parts, to be written one after the other without joining them (a
    /// log's body is as large as its changes): the signature and header, the body as stored
    /// (compressed with zstd when that saves a tenth; a large body is tried on its first 256 KiB
    /// first, so that incompressible content, recordings or photos, is not compressed in vain),
    /// and the SHA-256 of the two.
    static func frame<H: Header>(signature: [UInt8], header: H, body: [UInt8]) throws -> (prefix: [UInt8], stored: [UInt8], trailer: [UInt8]) {
        var header = header
        var stored = body
        header.compression = "none"
        let sample = min(body.count, 256 << 10)
        if body.count >= 512, body.count <= sample || Self.saves(ZstdCodec.compress(Array(body[0..<sample])).count, of: sample) {
            let compressed = ZstdCodec.compress(body)
            if !compressed.isEmpty, compressed.count * 10 <= body.count * 9 {
                stored = compressed
                header.compression = "zstd"
            }
        }
        header.rawBytes = body.count
        header.bodyBytes = stored.count
        let prefix = try prefix(signature: signature, header: header)
        var digest = SHA256()
        prefix.withUnsafeBytes { digest.update(bytes: $0) }
        stored.withUnsafeBytes { digest.update(bytes: $0) }
        return (prefix, stored, digest.finalize())
    }

    /// The error for a file at `path` that is not a usable framed file of its kind (`what`: "log",
    /// "baseline"), saying what is wrong.
    static func damaged(_ what: String, path: String, _ problem: String) -> ContainerError {
        ContainerError(.damagedLog, path: path, message: "is not a usable \(what): \(problem)",
                       hint: "the file is damaged or was not written by storekeep (see docs/container.md)")
    }

    /// What comes before the body: the signature, the header's length and the header (JSON with
    /// sorted keys).
    static func prefix<H: Header>(signature: [UInt8], header: H) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let headerBytes = Array(try encoder.encode(header))
        var prefix = signature
        withUnsafeBytes(of: UInt32(headerBytes.count).littleEndian) { prefix.append(contentsOf: $0) }
        return prefix + headerBytes
    }

    /// Whether `compressed` bytes save at least a tenth of `original`.
    private static func saves(_ compressed: Int, of original: Int) -> Bool { compressed > 0 && compressed * 10 <= original * 9 }

    /// The header of a framed file, read without its body (and so without checking its checksum).
    static func header<H: Header>(signature: [UInt8], as type: H.Type, readingFirst read: (Int) -> Data?) -> H? {
        headerAndLength(signature: signature, as: type, readingFirst: read)?.header
    }

    /// The header of a framed file and the length of its JSON (so where its body starts), read
    /// without its body.
    static func headerAndLength<H: Header>(signature: [UInt8], as: H.Type, readingFirst read: (Int) -> Data?) -> (header: H, length: Int)? {
        let prefix = signature.count + 4
        guard let start = read(prefix), start.count == prefix, Array(start.prefix(signature.count)) == signature else { return nil }
        var length = 0
        for index in 0..<4 { length |= Int(start[start.startIndex + signature.count + index]) << (8 * index) }
        guard length < 1 << 20, let bytes = read(prefix + length), bytes.count == prefix + length,
              let header = try? JSONDecoder().decode(H.self, from: bytes.suffix(length)) else { return nil }
        return (header, length)
    }

    /// The header and the decompressed body, after checking the signature, the checksum and the sizes.
    ///
    /// - Throws: ``ContainerError`` `damagedLog`, naming `path` and what is wrong.
    /// With `decodingBody` false, the body is checked by the checksum only and not decompressed
    /// (an empty body is returned): to know that a file is whole, at the cost of one SHA-256 pass.
    static func decode<H: Header>(_ bytes: [UInt8], signature: [UInt8], as: H.Type, what: String, path: String,
                                  decodingBody: Bool = true) throws -> (H, [UInt8]) {
        func damaged(_ problem: String) -> ContainerError { Self.damaged(what, path: path, problem) }
        guard bytes.count >= signature.count + 4 + 32 else { throw damaged("it is only \(bytes.count) bytes long") }
        guard Array(bytes[0..<signature.count]) == signature else { throw damaged("it does not start with the \(what) signature") }
        let checked = bytes.count - 32
        var digest = SHA256()
        bytes.withUnsafeBytes { digest.update(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<checked])) }
        guard digest.finalize() == Array(bytes[checked...]) else { throw damaged("its checksum does not match its content (truncated or changed)") }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[signature.count + index]) << (8 * index) }
        let headerStart = signature.count + 4
        guard length <= checked - headerStart else { throw damaged("its header length runs past the end") }
        let header: H
        do {
            header = try JSONDecoder().decode(H.self, from: Data(bytes[headerStart..<(headerStart + length)]))
        } catch {
            throw damaged("its header is not readable JSON")
        }
        let bodyStart = headerStart + length
        guard header.bodyBytes == checked - bodyStart, header.rawBytes >= 0 else { throw damaged("its body is not the size its header says") }
        let stored = bytes[bodyStart..<checked]
        guard decodingBody || header.compression == "none" || header.compression == "zstd" else {
            throw damaged("its compression '\(header.compression)' is unknown")
        }
        if !decodingBody { return (header, []) }
        switch header.compression {
        case "none":
            guard header.rawBytes == stored.count else { throw damaged("its body is not the size its header says") }
            return (header, Array(stored))
        case "zstd":
            guard header.rawBytes <= 1 << 31 else { throw damaged("its body claims \(header.rawBytes) bytes") }
            let body = stored.withUnsafeBytes { ZstdCodec.decompress($0, size: header.rawBytes) }
            guard let body else { throw damaged("its compressed body does not decompress to \(header.rawBytes) bytes") }
            return (header, body)
        default:
            throw damaged("its compression '\(header.compression)' is unknown")
        }
    }
}
