import Foundation

/// Where the values of an XML property list's root dictionary start, learnt while reading: a
/// later lookup of a top-level key starts there instead of reading through the values before it
/// (a key written after an array of a million elements, as `version` is in plistlib's sorted
/// output, would otherwise cost a pass over the whole file).
final class XMLTopLevelIndex: @unchecked Sendable {
    /// Where a value starts: the byte offset just after its key, and that offset's line.
    struct Place {
        /// Byte offset in the file.
        var offset: Int64
        /// 1-based line of that offset.
        var line: Int
    }

    /// What a read through a top-level value found: its type and, for a container, its count.
    struct Extent {
        /// The value's type name (`array`, `dictionary`, …).
        var typeName: String
        /// Its element count, for a container.
        var count: Int?
    }

    private let lock = NSLock()
    @exclusivity(unchecked) private var places: [String: Place] = [:]
    @exclusivity(unchecked) private var extents: [String: Extent] = [:]
    @exclusivity(unchecked) private var complete = false

    /// Where the value of `key` starts, when known.
    func place(of key: String) -> Place? {
        lock.withLock { places[key] }
    }

    /// Whether every key of the root dictionary is known (so a key not known is absent).
    var isComplete: Bool { lock.withLock { complete } }

    /// Records where the value of `key` starts (the first of a repeated key is kept, as a read
    /// from the top finds it).
    func record(_ key: String, at place: Place) {
        lock.withLock { if places[key] == nil { places[key] = place } }
    }

    /// What a read through the value of `key` found, when one did.
    func extent(of key: String) -> Extent? {
        lock.withLock { extents[key] }
    }

    /// Records what a read through the value of `key` found (the first of a repeated key).
    func record(_ key: String, extent: Extent) {
        lock.withLock { if extents[key] == nil { extents[key] = extent } }
    }

    /// Marks every key of the root dictionary as recorded.
    func markComplete() {
        lock.withLock { complete = true }
    }
}
