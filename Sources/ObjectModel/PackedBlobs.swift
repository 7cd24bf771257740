import Foundation

/// Blob contents kept one after another in a single file (the blob files of a snapshot baseline,
/// after its database), read by digest where they lie instead of being copied out first.
///
/// Every read is checked against the digest it was asked for: the file is only trusted to hold
/// what the digest names, whatever happened to it since its places were listed.
///
/// ```swift
/// let blobs = try PackedBlobs(path: baseline, places: places)
/// let recording = try blobs.read(digest: hex)
/// ```
public final class PackedBlobs: Sendable {
    /// A SHA-256 as four words: 32 bytes held inline, so that a store's hundred thousand blobs
    /// cost a few megabytes to list.
    public struct Digest: Hashable, Sendable {
        private let words: (UInt64, UInt64, UInt64, UInt64)

        /// The digest of 32 `bytes`; `nil` for any other count.
        public init?(bytes: some Collection<UInt8>) {
            guard bytes.count == 32 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, byte) in bytes.enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
            self.words = (words[0], words[1], words[2], words[3])
        }

        /// The digest written as 64 lowercase hex digits; `nil` for anything else.
        public init?(hex: String) {
            guard let bytes = SHA256.digestBytes(ofHex: hex) else { return nil }
            self.init(bytes: bytes)
        }

        /// Whether two digests are the same 32 bytes.
        public static func == (lhs: Digest, rhs: Digest) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
        }

        /// Feeds the four words to `hasher`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// Where a blob's bytes lie in the file.
    public struct Place: Sendable, Equatable {
        /// The offset of its first byte.
        public let offset: Int64
        /// How many bytes it has.
        public let bytes: Int64

        /// A place.
        public init(offset: Int64, bytes: Int64) {
            self.offset = offset
            self.bytes = bytes
        }
    }

    /// The file the blobs lie in.
    public let path: String
    private let descriptor: Int32
    private let places: [Digest: Place]

    /// Opens `path`, whose blobs lie at `places`.
    ///
    /// - Throws: ``DurableFile/Failure`` when the file cannot be opened.
    public init(path: String, places: [Digest: Place]) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DurableFile.Failure(path: path, reason: "open for reading: \(String(cString: strerror(errno)))", code: errno)
        }
        self.path = path
        self.descriptor = descriptor
        self.places = places
    }

    deinit { _ = close(descriptor) }

    /// How many blobs the file holds.
    public var count: Int { places.count }

    /// The blob whose SHA-256 is `hex` (64 lowercase hex digits).
    ///
    /// - Throws: `POSIXError` `EINVAL` for a digest that is not one, `ENOENT` for one the file
    ///   does not hold, `EIO` when the bytes at its place cannot be read or do not have that digest.
    public func read(digest hex: String) throws -> Data {
        guard let digest = Digest(hex: hex) else { throw POSIXError(.EINVAL) }
        guard let place = places[digest] else { throw POSIXError(.ENOENT) }
        guard place.bytes >= 0, place.bytes <= Int64(Int.max) else { throw POSIXError(.EIO) }
        var data = Data(count: Int(place.bytes))
        let read = data.withUnsafeMutableBytes { try? DurableFile.readFully(descriptor, into: $0, at: place.offset, path: path) }
        guard read == data.count, SHA256.hexDigest(of: data) == hex else { throw POSIXError(.EIO) }
        return data
    }
}
