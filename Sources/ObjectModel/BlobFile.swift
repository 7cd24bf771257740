import Foundation

/// A blob file of a store: a value too large for the database, kept in the store's blob folder
/// under its SHA-256. A store's file snapshot lists them; a snapshot baseline copies them.
public struct BlobFile: Sendable, Equatable {
    /// The blob's SHA-256, 64 lowercase hex digits (its name in the blob folder).
    public let digest: String
    /// The file.
    public let path: String
    /// Its size in bytes.
    public let bytes: Int64

    /// A blob file.
    public init(digest: String, path: String, bytes: Int64) {
        self.digest = digest
        self.path = path
        self.bytes = bytes
    }
}
