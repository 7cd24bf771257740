/// The dictionary keys a caller wants from each element of an array (see
/// ``PropertyListDocument/forEachElement(atKeyPath:from:selecting:_:)``): only their values are
/// read, and a binary file's key objects are matched once, by reference, not once per element.
public final class PropertyListKeySelection {
    /// The keys, in the order their values are returned.
    public let keys: [String]
    private let slotOfKey: [String: Int]
    /// The keys' UTF-8 bytes, for XML files (matched without making a string per key).
    private let keyBytes: [[UInt8]]
    /// Binary files: key object reference → slot in ``keys``, or -1 for a key not selected (a
    /// file has a handful of distinct key objects, looked up once per element and key).
    @exclusivity(unchecked) private var slotOfReference = ReferenceCache<Int>(capacity: 256)

    /// Selects `keys` (a key listed twice gets the first slot).
    public init(keys: [String]) {
        self.keys = keys
        slotOfKey = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        keyBytes = keys.map { Array($0.utf8) }
    }

    /// The slot of the key whose UTF-8 bytes are `bytes`, or `nil` when it is not selected.
    func slot(ofBytes bytes: [UInt8]) -> Int? {
        if keyBytes.count > 16 { return String(validating: bytes, as: UTF8.self).flatMap { slotOfKey[$0] } }
        for (slot, candidate) in keyBytes.enumerated() where candidate == bytes { return slot }
        return nil
    }

    /// The slot of `key`, or `nil` when it is not selected.
    func slot(of key: String) -> Int? { slotOfKey[key] }

    /// The slot of the key object `reference` (-1: not selected), working it out with `key` once.
    func slot(ofReference reference: UInt64, key: () throws(PropertyListError) -> String) throws(PropertyListError) -> Int {
        if let slot = slotOfReference.value(for: reference) { return slot }
        let slot = slotOfKey[try key()] ?? -1
        slotOfReference.keep(slot, for: reference)
        return slot
    }
}
