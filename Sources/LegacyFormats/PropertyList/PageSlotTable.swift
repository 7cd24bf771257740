/// Which cache slot holds which file page, for ``PagedFileReader``: an open-addressing hash table
/// of fixed capacity (twice the slot count, so probes stay short) with linear probing and
/// backward-shift deletion.
///
/// A `Dictionary<Int64, Int>` did the same job, but hashing its keys with `Hasher` (SipHash) on
/// every page lookup cost about 4% of a property-list migration's CPU time; page numbers need no
/// protection against crafted collisions (a collision costs one more probe, and the table never
/// holds more keys than the cache has slots), so a multiplicative hash does.
struct PageSlotTable {
    private var pages: [Int64]
    private var slots: [Int32]
    private let mask: Int
    private let shift: Int

    /// A table for at most `capacity` pages at once.
    init(capacity: Int) {
        var size = 8
        while size < capacity * 2 { size <<= 1 }
        pages = Array(repeating: -1, count: size)
        slots = Array(repeating: 0, count: size)
        mask = size - 1
        shift = 64 - size.trailingZeroBitCount
    }

    @inline(__always)
    private func home(of page: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: page) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift)) & mask
    }

    /// The slot holding `page`, or `nil`.
    @inline(__always)
    func slot(of page: Int64) -> Int? {
        var index = home(of: page)
        while true {
            let found = pages[index]
            if found == page { return Int(slots[index]) }
            if found < 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Records that `slot` holds `page` (which must not be in the table).
    mutating func insert(_ page: Int64, slot: Int) {
        var index = home(of: page)
        while pages[index] >= 0 { index = (index + 1) & mask }
        pages[index] = page
        slots[index] = Int32(slot)
    }

    /// Forgets `page`, if present.
    mutating func remove(_ page: Int64) {
        var index = home(of: page)
        while pages[index] != page {
            if pages[index] < 0 { return }
            index = (index + 1) & mask
        }
        // Backward shift: move later entries of the probe run into the hole when their home
        // position does not lie (cyclically) between the hole and them.
        var hole = index
        var next = (hole + 1) & mask
        while pages[next] >= 0 {
            let wanted = home(of: pages[next])
            let distanceToHole = (hole - wanted) & mask
            let distanceToNext = (next - wanted) & mask
            if distanceToHole < distanceToNext {
                pages[hole] = pages[next]
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        pages[hole] = -1
    }
}
