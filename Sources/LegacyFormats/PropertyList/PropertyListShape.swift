/// A summary of a property list's tree, for `storekeep inspect`: which types sit where and how many.
///
/// A node describes either one value (the root, and the entries of a dictionary described key by
/// key) or, inside an ``element``, all the values found at one place across many containers. Then
/// ``types`` counts the values of each type and, for the entries of summarised dictionaries,
/// ``present`` says how many of those dictionaries have the key.
///
/// A dictionary with more keys than the `maxKeys` given to ``PropertyListDocument/shape(maxDepth:maxKeys:)``
/// (such as iTunes' `Tracks`, keyed by track ID) is summarised like an array: no ``children``, its
/// values merged into ``element``.
///
/// The JSON form (the output of `inspect --json`) uses exactly the property names below and leaves
/// out absent ones:
///
/// ```json
/// {"type":"array","count":2,"element":{"type":"dictionary","types":{"dictionary":2},"count":3,
///  "children":{"name":{"type":"string","types":{"string":2},"present":2},
///              "age":{"type":"integer","types":{"integer":1},"present":1}}}}
/// ```
public struct PropertyListShape: Encodable, Sendable, Equatable {
    /// The value's type name (see ``PropertyListValue/typeName``), or "mixed" when a summary saw several.
    public var type: String
    /// For an array or dictionary: its number of elements or entries (in a summary, the total over
    /// all the containers summarised).
    public var count: Int?
    /// For a dictionary described key by key: the shape under each key.
    public var children: [String: PropertyListShape]?
    /// In a summary: how many values of each type were seen.
    public var types: [String: Int]?
    /// In a summary, under a dictionary: how many of the summarised dictionaries have this key.
    public var present: Int?
    /// On the root only: how many times a key longer than 256 bytes was met; each is shown (in
    /// ``children``) as its first 48 characters, "…", its length in bytes and the start of its
    /// SHA-256, so that a huge key is neither held in memory nor printed whole. `nil` when none was.
    public var shortenedKeys: Int?
    private var elementStorage: [PropertyListShape]

    /// For an array (or a dictionary with too many keys): the summary of all its elements (values).
    public var element: PropertyListShape? {
        get { elementStorage.first }
        set { elementStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a node.
    public init(
        type: String, count: Int? = nil, children: [String: PropertyListShape]? = nil,
        element: PropertyListShape? = nil, types: [String: Int]? = nil, present: Int? = nil
    ) {
        self.type = type
        self.count = count
        self.children = children
        self.types = types
        self.present = present
        self.elementStorage = element.map { [$0] } ?? []
    }

    private enum CodingKeys: String, CodingKey {
        case type, count, children, element, types, present, shortenedKeys
    }

    /// Encodes the node with the fields `type`, `count`, `children`, `element`, `types`, `present`,
    /// leaving out the absent ones.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(count, forKey: .count)
        try container.encodeIfPresent(types, forKey: .types)
        try container.encodeIfPresent(present, forKey: .present)
        try container.encodeIfPresent(shortenedKeys, forKey: .shortenedKeys)
        try container.encodeIfPresent(children, forKey: .children)
        try container.encodeIfPresent(element, forKey: .element)
    }
}
