import Foundation
import ObjectModel

/// Rewrites a container file (a log or a baseline, `docs/container.md`) the way another program
/// could: its header or its body changed, with a checksum that matches again, so that what a test
/// feeds `sync` passes the frame checks and reaches the decoding and the import.
enum FramedFileSurgery {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Reads `url`, hands its header (JSON object) and its uncompressed body to `change`, and writes
    /// the result back with the sizes and the SHA-256 trailer made right.
    static func rewrite(_ url: URL, _ change: (inout [String: Any], inout [UInt8]) throws -> Void) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.count >= 12 + 32 else { throw Failure(description: "\(url.path) is too short") }
        let signature = Array(bytes[0..<8])
        var length = 0
        for index in 0..<4 { length |= Int(bytes[8 + index]) << (8 * index) }
        let headerEnd = 12 + length
        guard var header = try JSONSerialization.jsonObject(with: Data(bytes[12..<headerEnd])) as? [String: Any] else {
            throw Failure(description: "\(url.path) has no JSON header")
        }
        guard header["compression"] as? String == "none" else { throw Failure(description: "\(url.path) is compressed; the test needs a small file") }
        var body = Array(bytes[headerEnd..<(bytes.count - 32)])
        try change(&header, &body)
        header["bodyBytes"] = body.count
        header["rawBytes"] = body.count
        let headerBytes = [UInt8](try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        var file = signature
        withUnsafeBytes(of: UInt32(headerBytes.count).littleEndian) { file.append(contentsOf: $0) }
        file += headerBytes
        file += body
        var digest = SHA256()
        file.withUnsafeBytes { digest.update(bytes: $0) }
        file += digest.finalize()
        try Data(file).write(to: url)
    }

    /// The header of a container file.
    static func header(_ url: URL) throws -> [String: Any] {
        var result: [String: Any] = [:]
        let original = try Data(contentsOf: url)
        try rewrite(url) { header, _ in result = header }
        try original.write(to: url)
        return result
    }
}
