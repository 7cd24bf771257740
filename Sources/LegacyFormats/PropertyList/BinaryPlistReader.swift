/// Reads a `bplist00` file lazily: the trailer once, then only the offset-table entries and objects
/// an operation needs, through a bounded page cache. Every offset, count and reference is checked
/// against the file before use.
final class BinaryPlistReader {
    /// One object's header: its marker byte, where it is, its element count (or byte size for
    /// numbers) and where its payload starts.
    struct Object {
        let reference: UInt64
        let marker: UInt8
        let offset: Int64
        let count: Int
        let payload: Int64

        var kind: UInt8 { marker >> 4 }
        var isContainer: Bool { kind == 0xA || kind == 0xB || kind == 0xC || kind == 0xD }

        var typeName: String {
            switch kind {
            case 0x0: return "boolean"
            case 0x1: return "integer"
            case 0x2: return "real"
            case 0x3: return "date"
            case 0x4: return "data"
            case 0x5, 0x6: return "string"
            case 0x8: return "uid"
            case 0xD: return "dictionary"
            default: return "array"
            }
        }
    }

    /// Deeper nesting than this is refused.
    static let maxNesting = 200

    let pages: PagedFileReader
    let path: String
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: UInt64
    let topObject: UInt64
    let tableOffset: Int64
    /// How many objects one operation may visit: files that share containers can expand far
    /// beyond their size (a crafted file could expand exponentially); real files stay well below.
    let visitBudget: Int
    @exclusivity(unchecked) private var keyCache = ReferenceCache<String>(capacity: 4_096)
    /// Scalars that elements share (plistlib and CFBinaryPlist write an equal value once and refer
    /// to it from everywhere), decoded once: without it every element re-reads them from the far
    /// part of the file where they were first written.
    @exclusivity(unchecked) var sharedScalars = ReferenceCache<PropertyListValue>(capacity: 8_192, ways: 4)
    /// Shared single values a checking walk has already read (see ``sharedScalars``). The cache is
    /// direct-mapped, so a checking reader gives it many more places than a file has shared values
    /// (a million speeches share some 6,000 durations): with 8,192 places, collisions made
    /// ``PropertyListDocument/validate()`` read every page of the file almost four times.
    @exclusivity(unchecked) var checkedScalars: ReferenceCache<Bool>

    /// A reader of `file` caching `cachedPages` pages of 4 KiB and the shared values a checking
    /// walk has read in `checkedValueSlots` places.
    init(file: PlistFile, cachedPages: Int = 1 << 10, checkedValueSlots: Int = 8_192) throws(PropertyListError) {
        path = file.path
        pages = PagedFileReader(file: file, pageCount: cachedPages)
        checkedScalars = ReferenceCache(capacity: checkedValueSlots)
        guard file.size >= 8 + 1 + 1 + 32 else {
            throw .binary(path, offset: file.size, "the file is \(file.size) bytes long, too short for a binary property list (truncated?)")
        }
        let trailerStart = file.size - 32
        let trailer = try pages.bytes(at: trailerStart, count: 32)
        func number(_ from: Int) -> UInt64 { trailer[from..<(from + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
        offsetSize = Int(trailer[6])
        referenceSize = Int(trailer[7])
        objectCount = number(8)
        topObject = number(16)
        let table = number(24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw .binary(path, offset: trailerStart, "the trailer gives offset size \(offsetSize) and reference size \(referenceSize) (each must be 1 to 8; truncated file?)")
        }
        guard table >= 9, table < UInt64(trailerStart) else {
            throw .binary(path, offset: trailerStart, "the trailer puts the offset table at byte \(table), outside the file (\(file.size) bytes)")
        }
        tableOffset = Int64(table)
        let tableRoom = UInt64(trailerStart - tableOffset) / UInt64(offsetSize)
        guard objectCount >= 1, objectCount <= tableRoom, objectCount <= UInt64(tableOffset - 8) else {
            throw .binary(path, offset: trailerStart, "the trailer claims \(objectCount) objects, which the file cannot hold")
        }
        guard topObject < objectCount else {
            throw .binary(path, offset: trailerStart, "the top object #\(topObject) does not exist (\(objectCount) objects)")
        }
        let references = Int(tableOffset - 8) / referenceSize
        visitBudget = 2 * (Int(objectCount) + references) + 1_000_000
    }

    /// The header of object `reference`, checked against the file.
    func object(_ reference: UInt64) throws(PropertyListError) -> Object {
        guard reference < objectCount else {
            // References read from the file are checked where they are read; this is the offset table they index.
            throw .binary(path, offset: tableOffset, "a reference to object #\(reference), but the file has \(objectCount) objects")
        }
        let entry = tableOffset + Int64(reference) * Int64(offsetSize)
        let rawOffset = try pages.unsigned(at: entry, size: offsetSize)
        guard rawOffset >= 8, rawOffset < UInt64(tableOffset) else {
            throw .binary(path, offset: entry, "object #\(reference) is said to be at byte \(rawOffset), outside the objects (bytes 8..<\(tableOffset))")
        }
        let offset = Int64(rawOffset)
        let marker = try pages.byte(at: offset)
        let info = Int(marker & 0x0F)
        var count = 0
        var payload = offset + 1
        var unit = 1
        switch marker >> 4 {
        case 0x0:
            guard marker == 0x08 || marker == 0x09 else {
                throw .binary(path, offset: offset, "object #\(reference) has marker \(hex(marker)) (null or fill), which is not a value")
            }
        case 0x1:
            guard info <= 4 else { throw .binary(path, offset: offset, "object #\(reference) is an integer of \(1 << info) bytes") }
            count = 1 << info
        case 0x2:
            guard info == 2 || info == 3 else { throw .binary(path, offset: offset, "object #\(reference) is a real of \(1 << info) bytes") }
            count = 1 << info
        case 0x3:
            guard marker == 0x33 else { throw .binary(path, offset: offset, "object #\(reference) has the unknown date marker \(hex(marker))") }
            count = 8
        case 0x8:
            count = info + 1
            guard count <= 8 else { throw .binary(path, offset: offset, "object #\(reference) is a UID of \(count) bytes") }
        case 0x4, 0x5, 0x6, 0xA, 0xB, 0xC, 0xD:
            (count, payload) = try elementCount(marker: marker, at: offset, reference: reference)
            switch marker >> 4 {
            case 0x6: unit = 2
            case 0xD: unit = 2 * referenceSize
            case 0x4, 0x5: unit = 1
            default: unit = referenceSize
            }
        default:
            throw .binary(path, offset: offset, "object #\(reference) has the unknown marker \(hex(marker))")
        }
        let (size, overflow) = count.multipliedReportingOverflow(by: marker >> 4 == 0x1 || marker >> 4 == 0x2 || marker >> 4 == 0x3 || marker >> 4 == 0x8 ? 1 : unit)
        guard !overflow, Int64(size) <= tableOffset - payload else {
            throw .binary(path, offset: offset, "object #\(reference) claims \(count) elements or bytes, more than the file holds")
        }
        return Object(reference: reference, marker: marker, offset: offset, count: count, payload: payload)
    }

    private func elementCount(marker: UInt8, at offset: Int64, reference: UInt64) throws(PropertyListError) -> (Int, Int64) {
        let info = Int(marker & 0x0F)
        guard info == 0x0F else { return (info, offset + 1) }
        guard offset + 2 < tableOffset else { throw .binary(path, offset: offset, "object #\(reference) ends before its length") }
        let lengthMarker = try pages.byte(at: offset + 1)
        guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
            throw .binary(path, offset: offset + 1, "the length of object #\(reference) is not written as an integer")
        }
        let size = 1 << Int(lengthMarker & 0x0F)
        guard offset + 2 + Int64(size) <= tableOffset else { throw .binary(path, offset: offset, "object #\(reference) ends inside its length") }
        let raw = try pages.unsigned(at: offset + 2, size: size)
        guard raw <= UInt64(Int32.max) * 64 else {
            throw .binary(path, offset: offset, "object #\(reference) claims \(raw) elements, more than the file holds")
        }
        return (Int(raw), offset + 2 + Int64(size))
    }

    /// The `index`th reference stored in the payload at `payload`, checked against the object count
    /// (a reference past it is named with the byte it was read from).
    func reference(in payload: Int64, at index: Int) throws(PropertyListError) -> UInt64 {
        let position = payload + Int64(index) * Int64(referenceSize)
        let reference = try pages.unsigned(at: position, size: referenceSize)
        guard reference < objectCount else {
            throw .binary(path, offset: position, "a reference to object #\(reference), but the file has \(objectCount) objects")
        }
        return reference
    }

    /// The key string of a dictionary entry (recently read keys are cached: real files share
    /// one string object per distinct key).
    func keyString(_ reference: UInt64) throws(PropertyListError) -> String {
        if let cached = keyCache.value(for: reference) { return cached }
        let key = try object(reference)
        guard key.kind == 0x5 || key.kind == 0x6 else {
            throw .binary(path, offset: key.offset, "a dictionary key (object #\(reference)) is a \(key.typeName), not a string")
        }
        let text = try string(key)
        // A long key is not kept: a cache of a few hundred places must not hold megabytes.
        if key.count <= ShapeAccumulator.longKeyBytes { keyCache.keep(text, for: reference) }
        return text
    }

    /// Gives back the memory of the page cache and the decoded-value caches, for a caller done
    /// reading for now (a later read works as on a new reader).
    func releaseMemory() {
        pages.releaseMemory()
        keyCache.removeAll()
        sharedScalars.removeAll()
        checkedScalars.removeAll()
    }

    /// The object at `path` (dictionary keys from the top object); `nil` when absent.
    func locate(_ path: [String]) throws(PropertyListError) -> UInt64? {
        var current = topObject
        for key in path {
            let dictionary = try object(current)
            guard dictionary.kind == 0xD else { return nil }
            var found: UInt64?
            for index in 0..<dictionary.count where found == nil {
                if try keyString(reference(in: dictionary.payload, at: index)) == key {
                    found = try reference(in: dictionary.payload, at: dictionary.count + index)
                }
            }
            guard let found else { return nil }
            current = found
        }
        return current
    }
}

/// `0x0F`-style text for a marker byte.
private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" + digits : digits)
}
