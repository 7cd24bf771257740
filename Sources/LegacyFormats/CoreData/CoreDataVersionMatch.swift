import ObjectModel

/// Which version of a model bundle a Core Data store was made with, and how that was found.
///
/// ```swift
/// let (reader, match) = try CoreDataStoreReader.open(at: url, bundle: bundle, versionOverride: nil, preferredVersion: nil)
/// match.version.versionName   // "CoreDataMigration_Example 2"
/// match.method                // .versionHashes
/// match.sentence              // "version 'CoreDataMigration_Example 2' found by Core Data's entity version hashes (1 of 1 entities)"
/// ```
public struct CoreDataVersionMatch: Sendable, Hashable {
    /// How the version was found, in the order they are tried.
    public enum Method: String, Sendable, Codable, Hashable {
        /// Named by the operator (`--model-version`).
        case override
        /// Core Data's entity version hashes computed from the version equal the store's
        /// `NSStoreModelVersionHashes`, entity for entity.
        case versionHashes
        /// The model the store keeps in its `Z_MODELCACHE` has the same entities and properties as the version.
        case modelCache
        /// The version is the only one whose entities, columns and join tables fit the store's tables.
        case tables
    }

    /// The version found.
    public var version: ManagedModel
    /// How it was found.
    public var method: Method
    /// One sentence for the operator: the version, the method, and why earlier methods did not decide.
    public var sentence: String

    /// Creates a match.
    public init(version: ManagedModel, method: Method, sentence: String) {
        self.version = version
        self.method = method
        self.sentence = sentence
    }
}
