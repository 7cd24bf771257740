/// A hand-written step file between two consecutive model versions (see `docs/steps.md`), as read,
/// before it is checked against the two versions.
///
/// ```swift
/// let file = try StepFileReader.read(path: "Migrations/SpeechTimer/SpeechTimer 2 to SpeechTimer 3.step.yaml")
/// file.entities.first?.attributes.first?.conversion   // .integerToString
/// ```
public struct StepFile: Hashable, Sendable {
    /// How one attribute of the next version is filled.
    public struct AttributeRule: Hashable, Sendable {
        /// The attribute in the next version.
        public var attribute: String
        /// The attribute in the previous version (a rename), or `nil` for the matching one.
        public var from: String?
        /// The declared conversion, or `nil` for the inferred one.
        public var conversion: ValueConversion?
        /// A constant for every record, as written.
        public var value: String?
        /// The value an empty old value becomes, as written.
        public var valueForEmpty: String?
        /// A value made for each record (`generate:`), alone like a constant.
        public var generator: ValueGenerator? = nil
        /// Whether the old value is explicitly not carried over.
        public var drop: Bool
        /// The file line.
        public var line: Int
        /// A key path through to-one relationships of the previous version to the attribute whose
        /// value is taken (`["continent", "code"]`); only a mapping model's rules set it.
        public var path: [String]? = nil
    }

    /// How one relationship of the next version is filled.
    public struct RelationshipRule: Hashable, Sendable {
        /// The relationship in the next version.
        public var relationship: String
        /// The relationship in the previous version (a rename), or `nil` for the matching one.
        public var from: String?
        /// Whether the old members are explicitly not carried over.
        public var drop: Bool
        /// The file line.
        public var line: Int
        /// A key path through to-one relationships of the previous version to the record that becomes
        /// the target (`["country", "continent"]`); only a mapping model's rules set it.
        public var path: [String]? = nil
    }

    /// One entity block.
    public struct EntityRule: Hashable, Sendable {
        /// The entity in the next version (`nil` in a block that drops an old entity).
        public var entity: String?
        /// The entity in the previous version (a rename, or the entity a `drop` block drops).
        public var from: String?
        /// Whether the old entity's records are explicitly not carried over.
        public var drop: Bool
        /// Attribute rules, in file order.
        public var attributes: [AttributeRule]
        /// Relationship rules, in file order.
        public var relationships: [RelationshipRule]
        /// The file line where the block starts.
        public var line: Int
    }

    /// The step file.
    public var path: String
    /// SHA-256 of the file's bytes (recorded in the migration history).
    public var checksum: String
    /// The previous version's name, as the file says.
    public var from: String
    /// The next version's name, as the file says.
    public var to: String
    /// The line of `from:` (for messages).
    public var line: Int
    /// The entity blocks, in file order.
    public var entities: [EntityRule]

    /// The file name of the step between two versions: `<from> to <to>.step.yaml`.
    public static func fileName(from: String, to: String) -> String { "\(from) to \(to).step.yaml" }
}
