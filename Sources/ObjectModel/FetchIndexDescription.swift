/// A fetch index of an entity: an ordered list of properties the store should index together.
public struct FetchIndexDescription: Hashable, Sendable, Codable {
    /// One element of a fetch index.
    public struct Element: Hashable, Sendable, Codable {
        /// The indexed property's name.
        public var property: String
        /// The index kind as written in the model ("Binary", "RTree"), if any.
        public var type: String?
        /// Whether the element is ascending (`true` unless the model says "descending").
        public var ascending: Bool

        /// Creates an index element.
        public init(property: String, type: String? = nil, ascending: Bool = true) {
            self.property = property
            self.type = type
            self.ascending = ascending
        }
    }

    /// The index's name.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]

    /// Creates a fetch index description.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
