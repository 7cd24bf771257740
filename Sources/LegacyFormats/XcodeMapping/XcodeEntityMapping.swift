/// One entity mapping of an Xcode mapping model: which source entity's records become which
/// destination entity's, with the property mappings and, maybe, a custom migration policy.
public struct XcodeEntityMapping: Hashable, Sendable {
    /// The mapping type Xcode records (`mappingtypename`).
    public enum Kind: String, Hashable, Sendable {
        /// "Undefined" (Xcode's custom mapping, the common case), "Custom", "Copy" or "Transform": records are mapped.
        case mapped
        /// "Add": destination records without a source (none are created without custom code).
        case add
        /// "Remove": the source entity's records are not carried over.
        case remove
    }

    /// The mapping's name: as written, else `<Source>To<Destination>` (Xcode's default), else the
    /// destination's name (an "Add" mapping has no source).
    public var name: String
    /// The source entity, when there is one.
    public var sourceEntity: String?
    /// The destination entity, when there is one.
    public var destinationEntity: String?
    /// What the mapping does.
    public var kind: Kind
    /// The custom `NSEntityMigrationPolicy` subclass it names (code storekeep cannot run), when any.
    public var migrationPolicyClass: String?
    /// A source expression other than Xcode's default fetch of every source record, when one is stored.
    public var sourceExpression: MappingExpression?
    /// The attribute mappings.
    public var attributeMappings: [XcodePropertyMapping]
    /// The relationship mappings.
    public var relationshipMappings: [XcodePropertyMapping]
    /// The order Xcode runs the mappings in (`mappingnumber`).
    public var order: Int

    /// Creates an entity mapping.
    public init(name: String, sourceEntity: String?, destinationEntity: String?, kind: Kind = .mapped,
                migrationPolicyClass: String? = nil, sourceExpression: MappingExpression? = nil,
                attributeMappings: [XcodePropertyMapping] = [], relationshipMappings: [XcodePropertyMapping] = [], order: Int = 0) {
        self.name = name
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
        self.kind = kind
        self.migrationPolicyClass = migrationPolicyClass
        self.sourceExpression = sourceExpression
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.order = order
    }
}
