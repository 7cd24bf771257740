/// Random access to a file through a small cache of fixed-size pages, so that reading a binary
/// plist touches only the pages it needs and memory stays bounded (64 pages of 16 KiB).
final class PagedFileReader {
    let file: PlistFile
    private let pageSize = 1 << 14
    private let pageCount = 64
    private let storage: UnsafeMutableRawPointer
    private var slotOfPage: [Int64: Int] = [:]
    private var pageOfSlot: [Int64]
    private var lengthOfSlot: [Int]
    private var lastUse: [UInt64]
    private var clock: UInt64 = 0
    private var lastPage: Int64 = -1
    private var lastStart: UnsafeMutableRawPointer
    private var lastLength = 0

    init(file: PlistFile) {
        self.file = file
        storage = UnsafeMutableRawPointer.allocate(byteCount: pageSize * pageCount, alignment: 16)
        pageOfSlot = Array(repeating: -1, count: pageCount)
        lengthOfSlot = Array(repeating: 0, count: pageCount)
        lastUse = Array(repeating: 0, count: pageCount)
        lastStart = storage
    }

    deinit {
        storage.deallocate()
    }

    /// Copies `count` bytes at `offset` into `destination`; the range must lie inside the file.
    func copy(at offset: Int64, count: Int, into destination: UnsafeMutableRawPointer) throws(PropertyListError) {
        if count > pageSize * 4 {
            let got = try file.read(at: offset, count: count, into: destination)
            guard got == count else { throw .binary(file.path, offset: offset, "the file ends inside an object") }
            return
        }
        var done = 0
        while done < count {
            let position = offset + Int64(done)
            let page = position / Int64(pageSize)
            let (start, length) = try slot(for: page)
            let within = Int(position - page * Int64(pageSize))
            guard within < length else { throw .binary(file.path, offset: position, "the file ends inside an object") }
            let chunk = min(count - done, length - within)
            (destination + done).copyMemory(from: start + within, byteCount: chunk)
            done += chunk
        }
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
        let page = offset / Int64(pageSize)
        let within = Int(offset - page * Int64(pageSize))
        let (start, length) = page == lastPage ? (lastStart, lastLength) : try slot(for: page)
        if within + size <= length {
            let bytes = (start + within).assumingMemoryBound(to: UInt8.self)
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[index]) }
            return value
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

    private func slot(for page: Int64) throws(PropertyListError) -> (UnsafeMutableRawPointer, Int) {
        clock += 1
        if let slot = slotOfPage[page] {
            lastUse[slot] = clock
            remember(page, storage + slot * pageSize, lengthOfSlot[slot])
            return (storage + slot * pageSize, lengthOfSlot[slot])
        }
        var victim = 0
        for candidate in 1..<pageCount where lastUse[candidate] < lastUse[victim] { victim = candidate }
        if pageOfSlot[victim] >= 0 { slotOfPage[pageOfSlot[victim]] = nil }
        let start = storage + victim * pageSize
        let length = try file.read(at: page * Int64(pageSize), count: pageSize, into: start)
        pageOfSlot[victim] = page
        lengthOfSlot[victim] = length
        lastUse[victim] = clock
        slotOfPage[page] = victim
        remember(page, start, length)
        return (start, length)
    }

    private func remember(_ page: Int64, _ start: UnsafeMutableRawPointer, _ length: Int) {
        lastPage = page
        lastStart = start
        lastLength = length
    }
}
