/// An Xcode mapping model (`.xcmappingmodel`): how records of one model version become records of
/// another, entity mapping by entity mapping, as the app's developer drew it in Xcode.
///
/// ```swift
/// let mapping = try XcodeMappingReader().read(at: URL(fileURLWithPath: "V2toV3.xcmappingmodel"))
/// mapping.sourceVersion          // "SampleModel2"
/// mapping.entityMappings.map(\.name)   // ["CarToCar", "LuxuryCarToLuxuryCar", …]
/// ```
public struct XcodeMappingModel: Hashable, Sendable {
    /// The `.xcmappingmodel` folder.
    public var path: String
    /// SHA-256 of its `xcmapping.xml` (recorded with the migration that applies it).
    public var checksum: String
    /// The source version's name (the `.xcdatamodel` folder the mapping was made from, without extension).
    public var sourceVersion: String
    /// The destination version's name.
    public var destinationVersion: String
    /// The model bundle's name both versions are in (the `.xcdatamodeld` folder name without
    /// extension), when the stored paths say.
    public var modelName: String?
    /// The entity mappings, in the order Xcode runs them.
    public var entityMappings: [XcodeEntityMapping]

    /// Creates a mapping model.
    public init(path: String, checksum: String, sourceVersion: String, destinationVersion: String, modelName: String?,
                entityMappings: [XcodeEntityMapping]) {
        self.path = path
        self.checksum = checksum
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.modelName = modelName
        self.entityMappings = entityMappings
    }

    /// The entity mapping named `name`, if any.
    public func entityMapping(named name: String) -> XcodeEntityMapping? {
        entityMappings.first { $0.name == name }
    }
}
