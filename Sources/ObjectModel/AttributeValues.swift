/// The attribute values of one record, by attribute name.
///
/// A record has a handful of attributes, and the import path reads each of them several times
/// (checking, digesting, binding, listing in history) for every record of a migration. A
/// `Dictionary` hashes the name with SipHash on every one of those reads and allocates a hash table
/// per record; this keeps the names and values in arrays in the order they were set and finds a
/// name with ``NameSearch`` (lengths, then text). Lookups are linear, so it suits records (tens
/// of attributes), not large maps.
///
/// Equality and hashing ignore the order of the entries, as a dictionary's do. Iteration follows
/// the order in which names were first set.
///
/// ```swift
/// var values: AttributeValues = ["title": .string("Keynote")]
/// values["duration"] = .double(1_200)
/// values["title"]          // .string("Keynote")
/// values.names             // ["title", "duration"]
/// ```
public struct AttributeValues: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One attribute's name and value.
    public typealias Element = (name: String, value: AttributeValue)

    /// The names set, in order, and their values at the same positions.
    @usableFromInline var keys: [String]
    @usableFromInline var values: [AttributeValue]
    /// Whether every key is ASCII (kept when keys go: it only decides when lengths may be compared).
    @usableFromInline var keysAreASCII = true

    /// No values.
    public init() {
        keys = []
        values = []
    }

    /// The values of `dictionary`, in the order of their names.
    public init(_ dictionary: [String: AttributeValue]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        keys = sorted.map(\.key)
        values = sorted.map(\.value)
        keysAreASCII = keys.allSatisfy(NameSearch.isASCII)
    }

    /// The values listed; a name listed twice keeps its last value.
    public init(dictionaryLiteral elements: (String, AttributeValue)...) {
        self.init()
        reserveCapacity(elements.count)
        for (name, value) in elements { self[name] = value }
    }

    /// The position of `name` (``NameSearch``).
    @inlinable
    func position(of name: String, nameIsASCII: Bool? = nil) -> Int? {
        NameSearch.position(of: name, count: keys.count, namesAreASCII: keysAreASCII, nameIsASCII: nameIsASCII) { keys[$0] }
    }

    /// The value set for `name`, for a caller that knows whether `name` is ASCII (a model's
    /// attribute names, checked once): an absent name then costs no pass over its text.
    @inlinable
    public func value(named name: String, nameIsASCII: Bool) -> AttributeValue? {
        guard let index = position(of: name, nameIsASCII: nameIsASCII) else { return nil }
        return values[index]
    }

    /// Records that `name` is now a key.
    @usableFromInline
    mutating func noteKey(_ name: String) {
        if keysAreASCII, !NameSearch.isASCII(name) { keysAreASCII = false }
    }

    /// The value set for `name`, or `nil`; setting `nil` removes the name.
    public subscript(name: String) -> AttributeValue? {
        @inlinable get {
            guard let index = position(of: name) else { return nil }
            return values[index]
        }
        set {
            switch (position(of: name), newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                keys.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                noteKey(name)
                keys.append(name)
                values.append(value)
            case (nil, nil): break
            }
        }
    }

    /// How many names have a value.
    public var count: Int { keys.count }

    /// Whether no name has a value.
    public var isEmpty: Bool { keys.isEmpty }

    /// The names that have a value, in the order they were first set.
    public var names: [String] { keys }

    /// The same values as a dictionary.
    public var dictionary: [String: AttributeValue] {
        Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
    }

    /// Adds `value` for `name`, which has no value yet: a reader filling a record from a model's
    /// attribute list (names unique by construction) skips the search the subscript makes.
    /// The caller guarantees that `name` is new: debug builds check it, release builds do not
    /// (a repeated name would then count twice and make equality wrong).
    public mutating func append(_ value: AttributeValue, forNewName name: String) {
        assert(position(of: name) == nil, "\(name) is already set")
        noteKey(name)
        keys.append(name)
        values.append(value)
    }

    /// Makes room for `count` values without reallocating.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Removes `name` and returns its value, if it had one.
    @discardableResult
    public mutating func removeValue(forName name: String) -> AttributeValue? {
        guard let index = position(of: name) else { return nil }
        keys.remove(at: index)
        return values.remove(at: index)
    }

    /// Iterates over the names and values in the order the names were first set.
    public func makeIterator() -> Iterator {
        Iterator(keys: keys, values: values)
    }

    /// Walks the names and values in order.
    public struct Iterator: IteratorProtocol {
        let keys: [String]
        let values: [AttributeValue]
        var index = 0

        /// The next name and value, or `nil` after the last.
        public mutating func next() -> Element? {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (name: keys[index], value: values[index])
        }
    }

    /// `true` when both hold the same names with equal values, whatever their order.
    public static func == (lhs: AttributeValues, rhs: AttributeValues) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        for (name, value) in zip(lhs.keys, lhs.values) {
            guard let other = rhs[name], other == value else { return false }
        }
        return true
    }

    /// Hashes the entries independently of their order (each entry's hash, summed).
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for (name, value) in zip(keys, values) {
            var entryHasher = Hasher()
            entryHasher.combine(name)
            entryHasher.combine(value)
            sum &+= entryHasher.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(sum)
    }

    /// The values as `[name: value, …]`, names sorted.
    public var description: String {
        let shown = zip(keys, values).sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }
        return "[\(shown.joined(separator: ", "))]"
    }
}
