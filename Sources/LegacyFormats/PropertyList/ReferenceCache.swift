/// A small cache from binary-plist object references to something worked out from the object (a
/// decoded value, a key's slot). Memory is fixed by the capacity, never by the file.
///
/// Object references are dense integers, so their low bits pick a set of `ways` places: no
/// hashing, and a run of neighbouring references never collides with itself. With one way it is
/// direct-mapped (a newer entry replaces whatever held its place); with several, a reference
/// competes only when its set is full, and then replaces the places of the set in turn. Values
/// that a whole file shares, scattered over its references (plistlib writes each distinct
/// duration once, where it first occurs), need the ways: direct-mapped, thousands of them evict
/// each other, and each miss reads two pages from the far part of the file.
struct ReferenceCache<Value> {
    private var references: [UInt64]
    private var values: [Value?]
    private let setMask: Int
    private let ways: Int
    private var nextVictim = 0

    /// A cache of `capacity` places (rounded up to a power of two) in sets of `ways` places (a
    /// power of two, at most the capacity).
    init(capacity: Int, ways: Int = 1) {
        var size = 1
        while size < capacity { size <<= 1 }
        var setSize = 1
        while setSize < ways, setSize < size { setSize <<= 1 }
        references = Array(repeating: .max, count: size)
        values = Array(repeating: nil, count: size)
        self.ways = setSize
        setMask = size / setSize - 1
    }

    /// The value kept for `reference`, if it is still there.
    @inline(__always)
    func value(for reference: UInt64) -> Value? {
        let base = (Int(truncatingIfNeeded: reference) & setMask) &* ways
        for place in base..<(base &+ ways) where references[place] == reference { return values[place] }
        return nil
    }

    /// Keeps `value` for `reference`: in its own place if it has one, else in a free place of its
    /// set, else in the set's next place in turn.
    @inline(__always)
    mutating func keep(_ value: Value, for reference: UInt64) {
        let base = (Int(truncatingIfNeeded: reference) & setMask) &* ways
        var chosen = base &+ nextVictim
        for place in base..<(base &+ ways) where references[place] == reference || references[place] == .max {
            chosen = place
            break
        }
        references[chosen] = reference
        values[chosen] = value
        if ways > 1 { nextVictim = (nextVictim &+ 1) & (ways &- 1) }
    }

    /// Forgets every entry (their values are released; the places stay allocated).
    mutating func removeAll() {
        for place in references.indices where references[place] != .max {
            references[place] = .max
            values[place] = nil
        }
    }
}
