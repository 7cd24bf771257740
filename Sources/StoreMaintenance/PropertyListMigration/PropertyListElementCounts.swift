import Foundation
import LegacyFormats

/// The element counts of a property list's arrays, by key path, each read once from the file
/// (``LegacyFormats/PropertyListDocument/elementCount(atKeyPath:)`` reads through a whole XML
/// array): a stream's estimate at the start of a run and the source's tally at its end use the
/// same count, read apart from the stream's elements.
final class PropertyListElementCounts: @unchecked Sendable {
    private let document: PropertyListDocument
    private let lock = NSLock()
    @exclusivity(unchecked) private var counts: [String: Int?] = [:]

    init(document: PropertyListDocument) {
        self.document = document
    }

    /// The number of elements of the array at `keyPath`; `nil` when there is no array there.
    func count(atKeyPath keyPath: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if let known = counts[keyPath] { return known }
        let count = try? document.elementCount(atKeyPath: keyPath)
        counts[keyPath] = .some(count ?? nil)
        return count ?? nil
    }
}
