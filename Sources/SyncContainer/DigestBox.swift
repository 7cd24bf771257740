import ObjectModel

/// A SHA-256 digest handed to another thread and back (``BackgroundWork``): the digest is not
/// copyable, the box is shared, and only one thread uses it at a time.
final class DigestBox: @unchecked Sendable {
    /// The digest; `nil` once taken back.
    var digest: SHA256?

    /// A box holding `digest`.
    init(_ digest: consuming SHA256) { self.digest = consume digest }
}
