/// One attribute or relationship mapping of an entity mapping: how a destination property gets its value.
public struct XcodePropertyMapping: Hashable, Sendable {
    /// The destination property's name.
    public var name: String
    /// The value expression as stored (`valueexpressiondata`), or `nil` when none is stored.
    public var storedExpression: MappingExpression?
    /// Whether Xcode generates the expression (its "auto-generate value expression" switch).
    public var autogenerates: Bool
    /// The relationship's source key path in Xcode's mapping editor (`$source.country.continent`), when set.
    public var sourceKeyPath: String?
    /// The entity mapping named in Xcode's mapping editor for a relationship, when set.
    public var sourceMappingName: String?

    /// Creates a property mapping.
    public init(name: String, storedExpression: MappingExpression? = nil, autogenerates: Bool = false,
                sourceKeyPath: String? = nil, sourceMappingName: String? = nil) {
        self.name = name
        self.storedExpression = storedExpression
        self.autogenerates = autogenerates
        self.sourceKeyPath = sourceKeyPath
        self.sourceMappingName = sourceMappingName
    }
}
