import CLibCrypto
import Foundation

/// SHA-256 from the system's libcrypto, incrementally or in one call.
///
/// ```swift
/// SHA256.hexDigest(of: Data("abc".utf8))  // "ba7816bf…"
/// var hasher = SHA256()
/// hasher.update(chunk1); hasher.update(chunk2)
/// let hex = hasher.finalizeHex()
/// ```
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// Starts a new digest.
    public init() {
        // EVP_MD_CTX_new only fails when memory is exhausted, where nothing else could go on either.
        context = EVP_MD_CTX_new()!
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { buffer in
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
    }

    /// Adds raw bytes to the digest.
    public mutating func update(bytes: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Adds the UTF-8 bytes of `text` to the digest.
    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
    }

    /// A digest in the same state as this one, to end separately (the digest of a prefix and of
    /// the whole, in one pass).
    public func copy() -> SHA256 {
        let other = SHA256()
        _ = EVP_MD_CTX_copy_ex(other.context, context)
        return other
    }

    /// Ends the digest and returns its 32 bytes.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        digest.withUnsafeMutableBufferPointer { _ = EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        return digest
    }

    /// Ends the digest and returns it as 64 lowercase hex digits.
    public consuming func finalizeHex() -> String {
        Self.hex(finalize())
    }

    /// The SHA-256 of `data` as 64 lowercase hex digits.
    public static func hexDigest(of data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// The SHA-256 of the UTF-8 bytes of `text` as 64 lowercase hex digits.
    public static func hexDigest(of text: String) -> String {
        var hasher = SHA256()
        hasher.update(text)
        return hasher.finalizeHex()
    }

    /// The 32 bytes of a digest written as 64 lowercase hex digits (``hex(_:)`` undone); `nil`
    /// for anything else.
    public static func digestBytes(ofHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
