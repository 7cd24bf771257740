/// A digest of a store's content: equal for stores holding the same records, values,
/// relationships and binary values, whatever their row ids, timestamps or history.
///
/// ```swift
/// let digest = try store.contentDigest()
/// digest.digest                      // 64 hex digits
/// digest.entities["Speech"]?.records
/// ```
public struct ContentDigest: Hashable, Sendable, Codable {
    /// The digest of one entity's records (exact entity) and of the relationships they own.
    public struct Entity: Hashable, Sendable, Codable {
        /// Live records of exactly this entity.
        public var records: Int
        /// 64 hex digits.
        public var digest: String
    }

    /// The digest of the whole content, 64 hex digits.
    public var digest: String
    /// Live records in all.
    public var records: Int
    /// Relationship links counted (to-one targets, and to-many members stored in join tables).
    public var links: Int
    /// Per entity.
    public var entities: [String: Entity]
}
