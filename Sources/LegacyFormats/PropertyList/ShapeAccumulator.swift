import ObjectModel

/// The mutable tree behind ``PropertyListShape`` while a file is walked: every node summarises the
/// values seen at one place; merging two nodes is associative, so a dictionary place with too many
/// distinct keys can fold its children into one element summary at any time, which keeps memory
/// bounded by the variety of the file, not its size. A key longer than ``longKeyBytes`` is kept
/// only as its first characters, its length and a hash (``boundedKey(_:)``), so that a huge key
/// is not held, nor printed, whole.
final class ShapeAccumulator {
    /// Keys longer than this many UTF-8 bytes are shortened.
    static let longKeyBytes = 256
    /// How many characters of a long key are kept.
    static let keptCharacters = 48
    @exclusivity(unchecked) private var values = 0
    @exclusivity(unchecked) private var types: [String: Int] = [:]
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var hasCount = false
    @exclusivity(unchecked) private var children: [String: ShapeAccumulator]?
    @exclusivity(unchecked) private var foldedKeys = false
    @exclusivity(unchecked) private var element: ShapeAccumulator?
    private let maxKeys: Int
    /// Shared by a root and every node under it.
    private let tally: Tally

    /// What the nodes of one tree count together.
    final class Tally {
        /// How many times a key longer than ``ShapeAccumulator/longKeyBytes`` was met and shortened.
        var shortenedKeys = 0
    }

    init(maxKeys: Int, tally: Tally = Tally()) {
        self.maxKeys = maxKeys
        self.tally = tally
    }

    /// How many times a long key was shortened anywhere in this node's tree.
    var shortenedKeys: Int { tally.shortenedKeys }

    /// Records one value of type `typeName` (and, for containers, its element count).
    func record(_ typeName: String, count: Int? = nil) {
        values += 1
        types[typeName, default: 0] += 1
        if let count {
            self.count += count
            hasCount = true
        }
    }

    /// The node for the value under `key` of the dictionaries recorded here (the shared element node
    /// once this place has seen more than `maxKeys` distinct keys).
    func child(_ key: String) -> ShapeAccumulator {
        if foldedKeys { return elementNode() }
        let key = Self.boundedKey(key) { tally.shortenedKeys += 1 }
        var entries = children ?? [:]
        if let existing = entries[key] { return existing }
        if entries.count >= maxKeys {
            foldKeys()
            return elementNode()
        }
        let node = ShapeAccumulator(maxKeys: maxKeys, tally: tally)
        entries[key] = node
        children = entries
        return node
    }

    /// The node summarising the elements of the arrays (and folded dictionaries) recorded here.
    func elementNode() -> ShapeAccumulator {
        if let element { return element }
        let node = ShapeAccumulator(maxKeys: maxKeys, tally: tally)
        element = node
        return node
    }

    /// Adds everything `other` saw to this node.
    func merge(_ other: ShapeAccumulator) {
        values += other.values
        for (name, seen) in other.types { types[name, default: 0] += seen }
        count += other.count
        hasCount = hasCount || other.hasCount
        if other.foldedKeys, !foldedKeys { foldKeys() }
        if let otherElement = other.element { elementNode().merge(otherElement) }
        if let otherChildren = other.children {
            for (key, node) in otherChildren { child(key).merge(node) }
        }
    }

    /// `key`, or for a key longer than ``longKeyBytes``: its first ``keptCharacters`` characters,
    /// "…", its length and the start of its SHA-256, which tell long keys with a common start
    /// apart (`shortened` is called then).
    static func boundedKey(_ key: String, shortened: () -> Void = {}) -> String {
        let bytes = key.utf8.count
        guard bytes > longKeyBytes else { return key }
        shortened()
        let hash = SHA256.hexDigest(of: key).prefix(12)
        return "\(key.prefix(keptCharacters))… (\(bytes) bytes, sha256 \(hash))"
    }

    private func foldKeys() {
        let folded = elementNode()
        for (_, node) in children ?? [:] { folded.merge(node) }
        children = nil
        foldedKeys = true
    }

    /// The public form; `summary` is true inside an element, where `types` and `present` are shown.
    func shape(summary: Bool, underDictionary: Bool = false) -> PropertyListShape {
        let typeName = types.count == 1 ? (types.first?.key ?? "mixed") : "mixed"
        let childShapes = children.map { entries in
            entries.mapValues { $0.shape(summary: summary, underDictionary: true) }
        }
        return PropertyListShape(
            type: typeName,
            count: hasCount ? count : nil,
            children: childShapes,
            element: element?.shape(summary: true),
            types: summary ? types : nil,
            present: summary && underDictionary ? values : nil)
    }
}
