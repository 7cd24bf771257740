import Foundation
import ObjectModel

/// The bytes of a transaction log file: magic, header, body, checksum (`docs/container.md`).
///
/// ```
/// "SKLOG1\n\0"            8 bytes
/// header length           4 bytes, little-endian
/// header                  UTF-8 JSON (LogHeader)
/// body                    bodyBytes bytes (zstd-compressed when compression is "zstd")
/// SHA-256                 32 bytes, of every byte before it
/// ```
public enum LogFile {
    /// The first eight bytes of every log file.
    public static let magic: [UInt8] = Array("SKLOG1\n\0".utf8)

    /// The file's bytes for `body` (the encoded transactions), compressed when that saves at least a tenth.
    public static func encode(header: LogHeader, body: [UInt8]) throws -> [UInt8] {
        var header = header
        var stored = body
        header.compression = "none"
        if body.count >= 512 {
            let compressed = ZstdCodec.compress(body)
            if !compressed.isEmpty, compressed.count * 10 <= body.count * 9 {
                stored = compressed
                header.compression = "zstd"
            }
        }
        header.rawBytes = body.count
        header.bodyBytes = stored.count
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let headerBytes = Array(try encoder.encode(header))
        var file = magic
        file.reserveCapacity(magic.count + 4 + headerBytes.count + stored.count + 32)
        withUnsafeBytes(of: UInt32(headerBytes.count).littleEndian) { file.append(contentsOf: $0) }
        file += headerBytes
        file += stored
        var digest = SHA256()
        file.withUnsafeBytes { digest.update(bytes: $0) }
        file += digest.finalize()
        return file
    }

    /// The header and the (decompressed) body of a log file's bytes, after checking the magic, the
    /// checksum and the sizes.
    ///
    /// - Throws: ``ContainerError`` `damagedLog`, naming `path` and what is wrong.
    public static func decode(_ bytes: [UInt8], path: String) throws -> (LogHeader, [UInt8]) {
        func damaged(_ what: String) -> ContainerError {
            ContainerError(.damagedLog, path: path, message: "is not a usable transaction log: \(what)",
                           hint: "the file is damaged or was not written by storekeep; its peer can write it again (see docs/container.md, \"Damaged logs\")")
        }
        guard bytes.count >= magic.count + 4 + 32 else { throw damaged("it is only \(bytes.count) bytes long") }
        guard Array(bytes[0..<magic.count]) == magic else { throw damaged("it does not start with the log file signature") }
        let checked = bytes.count - 32
        var digest = SHA256()
        bytes.withUnsafeBytes { digest.update(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<checked])) }
        guard digest.finalize() == Array(bytes[checked...]) else { throw damaged("its checksum does not match its content (truncated or changed)") }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[magic.count + index]) << (8 * index) }
        let headerStart = magic.count + 4
        guard length <= checked - headerStart else { throw damaged("its header length runs past the end") }
        let header: LogHeader
        do {
            header = try JSONDecoder().decode(LogHeader.self, from: Data(bytes[headerStart..<(headerStart + length)]))
        } catch {
            throw damaged("its header is not readable JSON")
        }
        guard header.format == LogHeader.currentFormat else {
            throw ContainerError(.damagedLog, path: path, message: "is a log of format \(header.format); this storekeep reads format \(LogHeader.currentFormat)",
                                 hint: "use a newer storekeep")
        }
        let bodyStart = headerStart + length
        guard header.bodyBytes == checked - bodyStart, header.rawBytes >= 0 else { throw damaged("its body is not the size its header says") }
        let stored = bytes[bodyStart..<checked]
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
