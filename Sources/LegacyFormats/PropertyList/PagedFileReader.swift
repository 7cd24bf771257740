/// Random access to a file through a bounded cache of fixed-size pages, so that reading a binary
/// plist touches only the pages it needs and memory stays bounded (by default 1,024 pages of
/// 4 KiB: 4 MiB).
///
/// Writers that share equal values (CFBinaryPlist, Python's plistlib) make later records refer back
/// to objects anywhere before them, so reads jump around the file: small pages keep more of those
/// scattered objects cached for the same memory, and eviction is CLOCK (second chance), which costs
/// O(1) per miss whatever the page count.
final class PagedFileReader {
    let file: PlistFile
    let pageSize: Int
    /// log2 of ``pageSize`` (see ``locate(_:)``).
    private let pageShift: Int64
    let pageCount: Int
    @exclusivity(unchecked) private var storage: UnsafeMutableRawPointer
    /// Whether ``releaseMemory()`` gave the pages back (they are allocated again on the next read).
    @exclusivity(unchecked) private var released = false
    @exclusivity(unchecked) private var slotOfPage: PageSlotTable
    @exclusivity(unchecked) private var pageOfSlot: [Int64]
    @exclusivity(unchecked) private var lengthOfSlot: [Int]
    @exclusivity(unchecked) private var referenced: [Bool]
    @exclusivity(unchecked) private var hand = 0
    /// The most recently used pages (a binary plist read alternates between its offset table and
    /// its objects), checked before the page table: page number, start, length.
    @exclusivity(unchecked) private var recentPages: [Int64] = [-1, -1, -1, -1]
    @exclusivity(unchecked) private var recentStarts: [UnsafeMutableRawPointer]
    @exclusivity(unchecked) private var recentLengths: [Int] = [0, 0, 0, 0]
    @exclusivity(unchecked) private var recentNext = 0
    /// How many pages were read from the file (cache misses), for tests and measurements.
    @exclusivity(unchecked) private(set) var pagesRead = 0

    /// A reader of `file` caching `pageCount` pages of `pageSize` bytes (a power of two).
    init(file: PlistFile, pageSize: Int = 1 << 12, pageCount: Int = 1 << 10) {
        precondition(pageSize > 0 && pageSize & (pageSize - 1) == 0 && pageCount > 0)
        self.file = file
        self.pageSize = pageSize
        pageShift = Int64(pageSize.trailingZeroBitCount)
        self.pageCount = pageCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: pageSize * pageCount, alignment: 16)
        slotOfPage = PageSlotTable(capacity: pageCount)
        pageOfSlot = Array(repeating: -1, count: pageCount)
        lengthOfSlot = Array(repeating: 0, count: pageCount)
        referenced = Array(repeating: false, count: pageCount)
        recentStarts = Array(repeating: storage, count: 4)
    }

    deinit {
        if !released { storage.deallocate() }
    }

    /// Gives the cached pages' memory back, for a caller done reading for now; a later read
    /// allocates it again and starts with an empty cache.
    func releaseMemory() {
        guard !released else { return }
        for slot in 0..<pageCount where pageOfSlot[slot] >= 0 {
            slotOfPage.remove(pageOfSlot[slot])
            pageOfSlot[slot] = -1
            referenced[slot] = false
        }
        for index in 0..<4 { recentPages[index] = -1 }
        storage.deallocate()
        released = true
    }

    /// Copies `count` bytes at `offset` into `destination`; the range must lie inside the file.
    func copy(at offset: Int64, count: Int, into destination: UnsafeMutableRawPointer) throws(PropertyListError) {
        var (page, within) = try locate(offset)
        if count > pageSize * 4 {
            let got = try file.read(at: offset, count: count, into: destination)
            guard got == count else { throw .binary(file.path, offset: offset, "the file ends inside an object") }
            return
        }
        var done = 0
        while done < count {
            let (start, length) = try slot(for: page)
            guard within < length else { throw .binary(file.path, offset: offset + Int64(done), "the file ends inside an object") }
            let chunk = min(count - done, length - within)
            (destination + done).copyMemory(from: start + within, byteCount: chunk)
            done += chunk
            page += 1
            within = 0
        }
    }

    /// The page holding `offset` and the offset's place in it (by shift and mask: 64-bit division
    /// costs about 40 cycles, and a walk reads millions of integers).
    @inline(__always)
    private func locate(_ offset: Int64) throws(PropertyListError) -> (page: Int64, within: Int) {
        guard offset >= 0 else { throw .binary(file.path, offset: offset, "an object lies before the start of the file") }
        return (offset >> pageShift, Int(offset & (Int64(pageSize) - 1)))
    }

    /// Calls `body` with the `count` bytes at `offset`: in place when they lie in one cached page,
    /// else copied into a scratch buffer. The bytes are valid only inside `body`.
    func withBytes<R>(at offset: Int64, count: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PropertyListError) -> R {
        let (page, within) = try locate(offset)
        if within + count <= pageSize {
            let (start, length) = try cachedSlot(for: page)
            if within + count <= length { return body(UnsafeRawBufferPointer(start: start + within, count: count)) }
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
        defer { scratch.deallocate() }
        try copy(at: offset, count: count, into: scratch)
        return body(UnsafeRawBufferPointer(start: scratch, count: count))
    }

    /// The bytes at `offset` as a new array.
    func bytes(at offset: Int64, count: Int) throws(PropertyListError) -> [UInt8] {
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
        defer { scratch.deallocate() }
        try copy(at: offset, count: count, into: scratch)
        return Array(UnsafeRawBufferPointer(start: scratch, count: count))
    }

    /// The big-endian unsigned integer of `size` (1...8) bytes at `offset`.
    func unsigned(at offset: Int64, size: Int) throws(PropertyListError) -> UInt64 {
        let (page, within) = try locate(offset)
        let (start, length) = try cachedSlot(for: page)
        if within + size <= length {
            let bytes = start + within
            switch size {
            case 1: return UInt64(bytes.load(as: UInt8.self))
            case 2: return UInt64(UInt16(bigEndian: bytes.loadUnaligned(as: UInt16.self)))
            case 4: return UInt64(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
            case 8: return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
            default:
                let bytes = bytes.assumingMemoryBound(to: UInt8.self)
                var value: UInt64 = 0
                for index in 0..<size { value = value << 8 | UInt64(bytes[index]) }
                return value
            }
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { scratch.deallocate() }
        try copy(at: offset, count: size, into: scratch)
        let bytes = scratch.assumingMemoryBound(to: UInt8.self)
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The byte at `offset`.
    func byte(at offset: Int64) throws(PropertyListError) -> UInt8 {
        UInt8(truncatingIfNeeded: try unsigned(at: offset, size: 1))
    }

    /// The slot of `page`, from the recent pages when it is one of them.
    @inline(__always)
    private func cachedSlot(for page: Int64) throws(PropertyListError) -> (UnsafeMutableRawPointer, Int) {
        for index in 0..<4 where recentPages[index] == page {
            return (recentStarts[index], recentLengths[index])
        }
        return try slot(for: page)
    }

    private func slot(for page: Int64) throws(PropertyListError) -> (UnsafeMutableRawPointer, Int) {
        if let slot = slotOfPage.slot(of: page) {
            referenced[slot] = true
            remember(page, storage + slot * pageSize, lengthOfSlot[slot])
            return (storage + slot * pageSize, lengthOfSlot[slot])
        }
        if released {
            storage = UnsafeMutableRawPointer.allocate(byteCount: pageSize * pageCount, alignment: 16)
            for index in 0..<4 { recentStarts[index] = storage }
            released = false
        }
        // CLOCK: skip (and clear) recently used slots; an empty or unreferenced one is the victim.
        while referenced[hand] {
            referenced[hand] = false
            hand = hand + 1 == pageCount ? 0 : hand + 1
        }
        let victim = hand
        hand = hand + 1 == pageCount ? 0 : hand + 1
        if pageOfSlot[victim] >= 0 { slotOfPage.remove(pageOfSlot[victim]) }
        pageOfSlot[victim] = -1
        // The slot is about to be overwritten (and stays empty if the read fails): forget it as recent.
        for index in 0..<4 where recentStarts[index] == storage + victim * pageSize { recentPages[index] = -1 }
        let start = storage + victim * pageSize
        let length = try file.read(at: page * Int64(pageSize), count: pageSize, into: start)
        pagesRead += 1
        pageOfSlot[victim] = page
        lengthOfSlot[victim] = length
        referenced[victim] = true
        slotOfPage.insert(page, slot: victim)
        remember(page, start, length)
        return (start, length)
    }

    private func remember(_ page: Int64, _ start: UnsafeMutableRawPointer, _ length: Int) {
        recentPages[recentNext] = page
        recentStarts[recentNext] = start
        recentLengths[recentNext] = length
        recentNext = (recentNext + 1) & 3
    }
}
