/// Marks a record as inserted by seeding rather than by a user: which seed set, which version.
///
/// ```swift
/// try tx.insert("SpeechType", values: values, seed: SeedMark(set: "builtin-speech-types", version: 1))
/// ```
public struct SeedMark: Hashable, Sendable, Codable {
    /// The seed set's name.
    public var set: String
    /// The seed set's version.
    public var version: Int

    /// Creates a seed mark.
    public init(set: String, version: Int) {
        self.set = set
        self.version = version
    }
}
