/// A hand-written mapping from a legacy property list onto a model's entities (see `docs/mapping.md`).
///
/// ```swift
/// let mapping = try MappingFileReader.read(path: "Migrations/SpeechTimer/speechtimer1-plist.mapping.yaml")
/// mapping.entities.map(\.entity)   // ["SpeechType", "Speech", "Settings"]
/// ```
public struct MigrationMapping: Hashable, Sendable {
    /// How a record's global ID is made.
    public enum IdentityRule: Hashable, Sendable {
        /// The value of a source key (a string or UUID); unique in the source.
        case key(String)
        /// Derived from the entity's seed-key attribute values (equal on every peer that seeds the same record).
        case seedKey
        /// Derived from the mapping name, the entity and the element's position in the source.
        case position
    }

    /// Which records are seed data, and of which seed set.
    public struct SeedRule: Hashable, Sendable {
        /// The seed set.
        public var set: String
        /// The seed set's version.
        public var version: Int
        /// A boolean source key: only elements where it is true are seed records (all when `nil`).
        public var when: String?
    }

    /// A relationship filled by finding a target record by one of its attributes.
    public struct RelationshipRule: Hashable, Sendable {
        /// The relationship of the mapped entity.
        public var relationship: String
        /// The target entity (mapped earlier in the file).
        public var entity: String
        /// The target's attribute to match.
        public var match: String
        /// The source key holding the value to match.
        public var key: String
        /// The mapping file line.
        public var line: Int
        /// Whether the key may be absent from every element (`optional: true`); otherwise a key no
        /// element holds is refused as a typo.
        public var isOptional: Bool = false
        /// The mapping file line of `key:`, when known.
        public var keyLine: Int? = nil
    }

    /// One attribute filled from one source key.
    public struct AttributeRule: Hashable, Sendable {
        /// The attribute.
        public var attribute: String
        /// The source key (a dot-separated key path inside the element).
        public var key: String
        /// The mapping file line.
        public var line: Int
        /// Whether the key may be absent from every element (`{key: …, optional: true}`);
        /// otherwise a key no element holds is refused as a typo.
        public var isOptional: Bool = false
    }

    /// How one entity is filled.
    public struct EntityRule: Hashable, Sendable {
        /// The entity.
        public var entity: String
        /// The key path of the source array of dictionaries, or of one dictionary (one record).
        public var from: String
        /// How global IDs are made.
        public var identity: IdentityRule
        /// Which records are seed data.
        public var seed: SeedRule?
        /// The attributes, in file order.
        public var attributes: [AttributeRule]
        /// The relationships, in file order.
        public var relationships: [RelationshipRule]
        /// The mapping file line where the entity's block starts.
        public var line: Int
        /// The mapping file line of `from:`, when known.
        public var fromLine: Int? = nil
    }

    /// The mapping file.
    public var path: String
    /// SHA-256 of the file's bytes (recorded in the migration history; a change is reported).
    public var checksum: String
    /// The mapping's name (used in derived global IDs).
    public var name: String
    /// The model, resolved relative to the mapping file.
    public var modelPath: String
    /// The model version, or `nil` for the current version.
    public var modelVersion: String?
    /// Values the source must hold (key path → expected scalar as text), checked before anything is written.
    public var checks: [String: String]
    /// The entities, in the order they are migrated.
    public var entities: [EntityRule]
    /// The mapping file line of `model:`, when known.
    public var modelLine: Int? = nil
    /// The mapping file line of `modelVersion:`, when known.
    public var modelVersionLine: Int? = nil
}
