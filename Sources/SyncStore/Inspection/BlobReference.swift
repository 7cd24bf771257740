/// A record's reference to an external binary value, as a binary column holds it
/// (``StoreInspection/forEachBlobReference(in:holders:_:)``).
public struct BlobReference: Hashable, Sendable {
    /// The record's global ID.
    public var globalID: String
    /// Its exact entity.
    public var entity: String
    /// The text the column holds (`sha256:<64 hex digits>` when well formed).
    public var text: String
    /// The blob's content address (64 lowercase hex digits), or `nil` when ``text`` is not a reference.
    public var digest: String?
}
