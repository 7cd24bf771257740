extension PropertyListDocument {
    /// The two property list encodings the reader reads.
    public enum Format: String, Sendable, Hashable, Codable {
        /// `bplist00`, read by random access.
        case binary
        /// XML (`<?xml …?><plist>`), read as a stream.
        case xml
    }
}
