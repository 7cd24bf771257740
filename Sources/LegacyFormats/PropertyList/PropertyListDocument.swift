import Foundation

/// A property list file, XML or binary, read piece by piece: memory does not grow with the file.
///
/// Opening reads only the start of the file (and, for binary, its trailer). Each operation then
/// reads what it needs: a binary file by random access, an XML file in one streaming pass from the
/// top. Operations check the part of the file they read; ``validate()`` checks all of it.
///
/// ```swift
/// let document = try PropertyListDocument.open(at: url)
/// let total = try document.elementCount(atKeyPath: "Playlists") ?? 0
/// try document.forEachElement(atKeyPath: "Playlists", from: 100) { index, playlist in
///     print(index, playlist[key: "Name"] ?? .string("?"))
///     return true                       // false stops the walk
/// }
/// ```
///
/// A document is not safe to use from several threads at once; open one per thread instead.
public final class PropertyListDocument {
    private enum Reader {
        case binary(BinaryPlistReader)
        case xml(XMLPlistReader)
    }

    /// The file's path.
    public let path: String
    /// Whether the file is a binary or an XML property list.
    public let format: Format
    /// The file's size in bytes when it was opened.
    public let fileSize: Int64
    private let reader: Reader

    private init(path: String, format: Format, fileSize: Int64, reader: Reader) {
        self.path = path
        self.format = format
        self.fileSize = fileSize
        self.reader = reader
    }

    /// Opens the property list at `url`, telling binary (`bplist00`) from XML by its content.
    ///
    /// A missing or unreadable file is `.missingInput`; a file that is not a property list in one
    /// of these two formats is `.badInput`, with a problem saying what it looks like.
    public static func open(at url: URL) throws(PropertyListError) -> PropertyListDocument {
        let file = try PlistFile(path: url.path)
        switch try PropertyListSniffer.format(of: file) {
        case .binary:
            return PropertyListDocument(path: file.path, format: .binary, fileSize: file.size, reader: .binary(try BinaryPlistReader(file: file)))
        case .xml:
            return PropertyListDocument(path: file.path, format: .xml, fileSize: file.size, reader: .xml(XMLPlistReader(file: file)))
        }
    }

    /// A second document over the same open file, with caches of its own and sized for
    /// ``validate()`` (1 MiB of pages, and 64 Ki places for the shared values it has checked):
    /// for checking on another thread, beside a load, the very file this one reads, even if
    /// something has since been moved to its path.
    public func reopenedForValidation() throws(PropertyListError) -> PropertyListDocument {
        switch reader {
        case .binary(let binary):
            let reader = try BinaryPlistReader(file: binary.pages.file, cachedPages: 1 << 8, checkedValueSlots: 1 << 16)
            return PropertyListDocument(path: path, format: format, fileSize: fileSize, reader: .binary(reader))
        case .xml(let xml):
            return PropertyListDocument(path: path, format: format, fileSize: fileSize, reader: .xml(XMLPlistReader(file: xml.file)))
        }
    }

    /// Whether there is a value at `path` (see ``value(atKeyPath:)``), found without building it:
    /// reading up to it, however large it is.
    public func hasValue(atKeyPath path: String) throws(PropertyListError) -> Bool {
        switch reader {
        case .binary(let binary):
            return try binary.locate(Self.keys(path)) != nil
        case .xml(let xml):
            if path.isEmpty { return true }
            return try xml.locate(Self.keys(path)) != nil
        }
    }

    /// The value at `path`, materialised; `nil` when a key on the way is absent (or a value on the
    /// way is not a dictionary). The key path is dictionary keys separated by dots (`"a.b"`); `""`
    /// is the root. Meant for small subtrees: the whole value is built in memory.
    public func value(atKeyPath path: String) throws(PropertyListError) -> PropertyListValue? {
        switch reader {
        case .binary(let binary):
            guard let reference = try binary.locate(Self.keys(path)) else { return nil }
            var walk = binary.startWalk()
            return try binary.value(reference, walk: &walk)
        case .xml(let xml):
            let scanner = XMLPlistScanner(file: xml.file)
            if path.isEmpty {
                let root = try xml.root(scanner)
                let value = try xml.materialise(scanner, root.value, depth: 0)
                try xml.finish(scanner, wrapped: root.wrapped)
                return value
            }
            guard let (found, markup) = try xml.locate(Self.keys(path)) else { return nil }
            return try xml.materialise(found, markup, depth: 0)
        }
    }

    /// The number of elements of the array at `path`; `nil` when absent, an error when the value
    /// there is not an array. (For XML this reads through the array.)
    public func elementCount(atKeyPath path: String) throws(PropertyListError) -> Int? {
        switch reader {
        case .binary(let binary):
            guard let reference = try binary.locate(Self.keys(path)) else { return nil }
            let object = try binary.object(reference)
            try requireArray(object.typeName, path, offset: object.offset)
            return object.count
        case .xml(let xml):
            let keys = Self.keys(path)
            // A top-level array an earlier lookup read through is not read again.
            if keys.count == 1, let extent = xml.index.extent(of: keys[0]), let place = xml.index.place(of: keys[0]) {
                try requireArray(extent.typeName, path, line: place.line)
                return extent.count
            }
            guard let (scanner, markup) = try xml.locate(keys) else { return nil }
            try requireArray(markup.tag.typeName, path, line: scanner.line)
            let count = try xml.walk(scanner, markup, depth: 0, node: nil, shapeDepth: 0, checkLeaves: false)
            if keys.count == 1 {
                xml.index.record(keys[0], extent: .init(typeName: markup.tag.typeName, count: count))
                // The keys after a top-level array cost little once it is read through: later lookups
                // of them (a mapping's `version` check, in plistlib's sorted order) then skip the array.
                xml.indexRemainingTopLevelKeys(scanner)
            }
            return count
        }
    }

    /// Calls `body` with each element of the array at `path`, from index `start`, each element
    /// materialised on its own; `body` returns `false` to stop. Nothing is called when the path is
    /// absent (use ``elementCount(atKeyPath:)`` to tell that from an empty array).
    ///
    /// Binary files jump straight to `start`; XML files are read once from the top, skipping
    /// everything before the array and the first `start` elements without building them.
    /// Errors thrown by `body` come out unchanged; reading errors are ``PropertyListError``s.
    public func forEachElement(
        atKeyPath path: String, from start: Int = 0, _ body: (Int, PropertyListValue) throws -> Bool
    ) throws {
        guard start >= 0 else {
            throw PropertyListError(path: self.path, problem: "the start index \(start) is negative", failureKind: .usage)
        }
        switch reader {
        case .binary(let binary):
            try forEachBinaryElement(binary, atKeyPath: path, from: start) { index, element, walk in
                try body(index, binary.value(element, walk: &walk))
            }
        case .xml(let xml):
            try forEachXMLElement(xml, atKeyPath: path, from: start) { index, scanner, element in
                try body(index, xml.materialise(scanner, element, depth: 1))
            }
        }
    }

    /// Like ``forEachElement(atKeyPath:from:_:)``, but gives `body` only the values of the
    /// `selection`'s keys of each element (in its order, `nil` where absent), or `nil` and the
    /// element's type name when the element is not a dictionary. A binary file reads only those
    /// values; this is the fast path of a migration, which maps a few keys of millions of elements.
    public func forEachElement(
        atKeyPath path: String, from start: Int = 0, selecting selection: PropertyListKeySelection,
        _ body: (Int, [PropertyListValue?]?, String) throws -> Bool
    ) throws {
        guard start >= 0 else {
            throw PropertyListError(path: self.path, problem: "the start index \(start) is negative", failureKind: .usage)
        }
        guard case .binary(let binary) = reader else {
            guard case .xml(let xml) = reader else { return }
            try forEachXMLElement(xml, atKeyPath: path, from: start) { index, scanner, element in
                let (values, typeName) = try xml.selectedValues(scanner, element, selection: selection, depth: 1)
                return try body(index, values, typeName)
            }
            return
        }
        try forEachBinaryElement(binary, atKeyPath: path, from: start) { index, element, walk in
            let (values, typeName) = try binary.selectedValues(element, selection: selection, walk: &walk)
            return try body(index, values, typeName)
        }
    }

    /// Calls `visit` with the index, the scanner and the start tag of each element of the XML
    /// file's array at `path`, from `start` (the ones before are skipped unbuilt); `visit` reads
    /// the element and returns `false` to stop.
    private func forEachXMLElement(
        _ xml: XMLPlistReader, atKeyPath path: String, from start: Int, _ visit: (Int, XMLPlistScanner, PlistMarkup) throws -> Bool
    ) throws {
        guard let (scanner, markup) = try xml.locate(Self.keys(path)) else { return }
        try requireArray(markup.tag.typeName, path, line: scanner.line)
        guard markup.kind == .open else { return }
        var index = 0
        while let element = try xml.nextElement(scanner) {
            if index < start {
                try xml.walk(scanner, element, depth: 1, node: nil, shapeDepth: 0, checkLeaves: false)
            } else {
                guard try visit(index, scanner, element) else { return }
            }
            index += 1
        }
    }

    /// Calls `visit` with the index and reference of each element of the binary file's array at
    /// `path`, from `start`, each with the array as its only ancestor and what is left of one visit
    /// budget for all of them; stops when `visit` returns `false`.
    private func forEachBinaryElement(
        _ binary: BinaryPlistReader, atKeyPath path: String, from start: Int, _ visit: (Int, UInt64, inout BinaryWalk) throws -> Bool
    ) throws {
        guard let reference = try binary.locate(Self.keys(path)) else { return }
        let array = try binary.object(reference)
        try requireArray(array.typeName, path, offset: array.offset)
        var index = start
        // One budget for the whole array, as a whole-file check has: a crafted file that shares a
        // large value among all elements is refused by the load alone, after as many visits.
        var walk = binary.startWalk()
        while index < array.count {
            walk.ancestors = [reference]
            guard try visit(index, binary.reference(in: array.payload, at: index), &walk) else { return }
            index += 1
        }
    }

    /// A summary of the whole tree (see ``PropertyListShape``), from one pass with bounded memory.
    /// Below `maxDepth` levels only types and counts are kept; a dictionary place with more than
    /// `maxKeys` distinct keys is summarised like an array. With `checkingEveryValue`, the same
    /// pass also checks every value as ``validate()`` does, so that a damaged file is refused
    /// (as a migration refuses it) rather than summarised up to its damage.
    public func shape(maxDepth: Int = 32, maxKeys: Int = 256, checkingEveryValue: Bool = false) throws(PropertyListError) -> PropertyListShape {
        let root = ShapeAccumulator(maxKeys: max(1, maxKeys))
        switch reader {
        case .binary(let binary):
            var walk = binary.startWalk()
            try binary.walk(binary.topObject, node: root, shapeDepth: maxDepth, check: checkingEveryValue, walk: &walk)
        case .xml(let xml):
            let scanner = XMLPlistScanner(file: xml.file)
            let top = try xml.root(scanner)
            try xml.walk(scanner, top.value, depth: 0, node: root, shapeDepth: maxDepth, checkLeaves: checkingEveryValue)
            try xml.finish(scanner, wrapped: top.wrapped)
        }
        var shape = root.shape(summary: false)
        shape.shortenedKeys = root.shortenedKeys > 0 ? root.shortenedKeys : nil
        return shape
    }

    /// How many pages a binary document has read from the file so far (cache misses; 0 for
    /// XML), for tests and measurements.
    var pagesRead: Int {
        if case .binary(let binary) = reader { return binary.pages.pagesRead }
        return 0
    }

    /// Gives back the memory kept to make later reads faster (a binary file's page cache and
    /// decoded shared values), for a caller done reading for now; the document stays usable.
    public func releaseMemory() {
        if case .binary(let binary) = reader { binary.releaseMemory() }
    }

    /// Reads the whole file once, checking every element and value, without keeping anything:
    /// call it before a long import that must not stop half-way on a damaged file.
    public func validate() throws(PropertyListError) {
        switch reader {
        case .binary(let binary):
            var walk = binary.startWalk()
            try binary.walk(binary.topObject, node: nil, shapeDepth: 0, check: true, walk: &walk)
        case .xml(let xml):
            let scanner = XMLPlistScanner(file: xml.file)
            let top = try xml.root(scanner)
            try xml.walk(scanner, top.value, depth: 0, node: nil, shapeDepth: 0, checkLeaves: true)
            try xml.finish(scanner, wrapped: top.wrapped)
        }
    }

    /// Like ``validate()``, for a check that runs beside a load reading the arrays and values at
    /// `keyPaths` with ``forEachElement(atKeyPath:from:selecting:_:)`` or
    /// ``value(atKeyPath:)``, since those reads check everything they pass (selected or not):
    /// - in an XML file only the structure of those values is checked here;
    /// - in a binary file the elements of those arrays are not visited here (the load reads every
    ///   element under one visit budget for the array, as this check has one for the file).
    ///
    /// A load that stops early leaves the rest of those values unchecked.
    public func validate(leavingToTheLoad keyPaths: [String]) throws(PropertyListError) {
        guard !keyPaths.isEmpty else { return try validate() }
        switch reader {
        case .binary(let binary):
            var walk = binary.startWalk()
            try binary.check(binary.topObject, leavingToTheLoad: keyPaths.map(Self.keys), walk: &walk)
        case .xml(let xml):
            let scanner = XMLPlistScanner(file: xml.file)
            let top = try xml.root(scanner)
            try xml.check(scanner, top.value, depth: 0, leavingToTheLoad: keyPaths.map(Self.keys))
            try xml.finish(scanner, wrapped: top.wrapped)
        }
    }

    private static func keys(_ path: String) -> [String] {
        path.isEmpty ? [] : path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Throws unless the value at `keyPath` (found at `line` of an XML file, or at byte `offset` of
    /// a binary one) is an array.
    private func requireArray(_ typeName: String, _ keyPath: String, line: Int? = nil, offset: Int64? = nil) throws(PropertyListError) {
        guard typeName == "array" else {
            let place = keyPath.isEmpty ? "the root" : "'\(keyPath)'"
            throw PropertyListError(
                path: path, line: line, offset: offset, problem: "the value at \(place) is a \(typeName), not an array",
                hint: "Run `storekeep inspect` on the file to see its structure.", failureKind: .badInput)
        }
    }
}
