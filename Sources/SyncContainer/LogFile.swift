import Foundation

/// The bytes of a transaction log file (``FramedFile`` with the signature `SKLOG1\n\0` and a
/// ``LogHeader``; `docs/container.md`, "Log files").
public enum LogFile {
    /// The first eight bytes of every log file.
    public static let magic: [UInt8] = Array("SKLOG1\n\0".utf8)

    /// The file's bytes for `body` (the encoded transactions), compressed when that saves at least a tenth.
    public static func encode(header: LogHeader, body: [UInt8]) throws -> [UInt8] {
        try FramedFile.encode(signature: magic, header: header, body: body)
    }

    /// ``encode(header:body:)`` in the three parts the file is written from, one after the other:
    /// signature and header, the body as stored, the checksum.
    static func frame(header: LogHeader, body: [UInt8]) throws -> (prefix: [UInt8], stored: [UInt8], trailer: [UInt8]) {
        try FramedFile.frame(signature: magic, header: header, body: body)
    }

    /// The header and the (decompressed) body of a log file's bytes, after checking the signature,
    /// the checksum, the sizes and the format; the body comes back empty when `decodingBody` is false.
    ///
    /// - Throws: ``ContainerError`` `damagedLog`, naming `path` and what is wrong.
    public static func decode(_ bytes: [UInt8], path: String, decodingBody: Bool = true) throws -> (LogHeader, [UInt8]) {
        let (header, body) = try FramedFile.decode(bytes, signature: magic, as: LogHeader.self, what: "transaction log", path: path, decodingBody: decodingBody)
        guard header.format == LogHeader.currentFormat else {
            throw ContainerError(.damagedLog, path: path, message: "is a log of format \(header.format); this storekeep reads format \(LogHeader.currentFormat)",
                                 hint: "use a newer storekeep")
        }
        return (header, body)
    }
}
