/// A composite attribute type: a named group of attributes stored together (Xcode 15 and later).
public struct CompositeDescription: Hashable, Sendable, Codable {
    /// The composite's name, referenced by `AttributeDescription.compositeName`.
    public var name: String
    /// The attributes the composite groups.
    public var attributes: [AttributeDescription]

    /// Creates a composite description.
    public init(name: String, attributes: [AttributeDescription]) {
        self.name = name
        self.attributes = attributes
    }
}
