/// A small direct-mapped cache from binary-plist object references to something worked out from
/// the object (a decoded value, a key's slot): each reference has one place, a newer entry
/// replaces whatever held it. Memory is fixed by the capacity, never by the file.
///
/// Object references are dense integers, so the low bits pick the place: no hashing, and a run of
/// neighbouring references never collides with itself.
struct ReferenceCache<Value> {
    private var references: [UInt64]
    private var values: [Value?]
    private let mask: Int

    /// A cache of `capacity` places (rounded up to a power of two).
    init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        references = Array(repeating: .max, count: size)
        values = Array(repeating: nil, count: size)
        mask = size - 1
    }

    /// The value kept for `reference`, if it is still there.
    @inline(__always)
    func value(for reference: UInt64) -> Value? {
        let place = Int(truncatingIfNeeded: reference) & mask
        return references[place] == reference ? values[place] : nil
    }

    /// Keeps `value` for `reference`, replacing what held its place.
    @inline(__always)
    mutating func keep(_ value: Value, for reference: UInt64) {
        let place = Int(truncatingIfNeeded: reference) & mask
        references[place] = reference
        values[place] = value
    }

    /// Forgets every entry (their values are released; the places stay allocated).
    mutating func removeAll() {
        for place in references.indices where references[place] != .max {
            references[place] = .max
            values[place] = nil
        }
    }
}
