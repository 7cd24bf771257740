import Foundation

/// Reads plist XML in streaming passes over an ``XMLPlistScanner``: every operation starts a new
/// pass from the top of the file and materialises only what it returns.
struct XMLPlistReader {
    let file: PlistFile
    /// Deeper nesting than this is refused (it would only come from a crafted or broken file).
    static let maxNesting = 200

    /// A scanner positioned just after the start tag of the value at `path`, and that tag; `nil`
    /// when a key on the way is absent or a value on the way is not a dictionary.
    func locate(_ path: [String]) throws(PropertyListError) -> (XMLPlistScanner, PlistMarkup)? {
        let scanner = XMLPlistScanner(file: file)
        var current = try root(scanner).value
        for key in path {
            guard current.tag == .dict, current.kind == .open else { return nil }
            var found: PlistMarkup?
            while found == nil {
                guard let keyTag = try nextKey(scanner) else { return nil }
                let name = keyTag.kind == .empty ? "" : String(decoding: try scanner.readContent(of: .key, keep: true), as: UTF8.self)
                let value = try nextValue(scanner, after: "the key '\(name)'")
                if name == key { found = value } else { try walk(scanner, value, depth: 1, node: nil, shapeDepth: 0, checkLeaves: false) }
            }
            if let found { current = found }
        }
        return (scanner, current)
    }

    /// Reads the `<plist>` start tag (optional) and the start tag of the root value.
    func root(_ scanner: XMLPlistScanner) throws(PropertyListError) -> (value: PlistMarkup, wrapped: Bool) {
        try scanner.skipByteOrderMark()
        guard let first = try scanner.nextMarkup() else { throw scanner.failure("the file holds no element") }
        if first.tag == .plist {
            guard first.kind == .open else { throw scanner.failure("the <plist> element is empty") }
            return (try nextValue(scanner, after: "<plist>"), true)
        }
        guard first.tag.isValue, first.kind != .close else {
            throw scanner.failure("expected <plist> or a value, found \(first.written)")
        }
        return (first, false)
    }

    /// After the root value: `</plist>` when it was opened, then only the end of the file.
    func finish(_ scanner: XMLPlistScanner, wrapped: Bool) throws(PropertyListError) {
        if wrapped {
            let close = try scanner.nextMarkup()
            guard let close, close.kind == .close, close.tag == .plist else {
                throw scanner.failure("expected </plist>, found \(close?.written ?? "the end of the file")")
            }
        }
        if let extra = try scanner.nextMarkup() {
            throw scanner.failure("\(extra.written) after the end of the property list")
        }
    }

    /// The next `<key>` of a dictionary, or `nil` at its `</dict>`.
    func nextKey(_ scanner: XMLPlistScanner) throws(PropertyListError) -> PlistMarkup? {
        guard let markup = try scanner.nextMarkup() else { throw scanner.failure("the file ends inside a <dict>") }
        if markup.kind == .close, markup.tag == .dict { return nil }
        guard markup.tag == .key, markup.kind != .close else {
            throw scanner.failure("expected <key> or </dict>, found \(markup.written)")
        }
        return markup
    }

    /// The start tag of the next value.
    func nextValue(_ scanner: XMLPlistScanner, after what: String) throws(PropertyListError) -> PlistMarkup {
        guard let markup = try scanner.nextMarkup() else { throw scanner.failure("the file ends where a value should follow \(what)") }
        guard markup.tag.isValue, markup.kind != .close else {
            throw scanner.failure("expected a value after \(what), found \(markup.written)")
        }
        return markup
    }

    /// The next element of an array, or `nil` at its `</array>`.
    func nextElement(_ scanner: XMLPlistScanner) throws(PropertyListError) -> PlistMarkup? {
        guard let markup = try scanner.nextMarkup() else { throw scanner.failure("the file ends inside an <array>") }
        if markup.kind == .close, markup.tag == .array { return nil }
        guard markup.tag.isValue, markup.kind != .close else {
            throw scanner.failure("expected a value or </array>, found \(markup.written)")
        }
        return markup
    }

    /// The value whose start tag was just read, fully materialised.
    func materialise(_ scanner: XMLPlistScanner, _ markup: PlistMarkup, depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard depth <= Self.maxNesting else { throw scanner.failure("values nested more than \(Self.maxNesting) levels deep") }
        let empty = markup.kind == .empty
        switch markup.tag {
        case .array:
            var elements: [PropertyListValue] = []
            if empty { return .array(elements) }
            while let element = try nextElement(scanner) {
                elements.append(try materialise(scanner, element, depth: depth + 1))
            }
            return .array(elements)
        case .dict:
            var entries: [String: PropertyListValue] = [:]
            if empty { return .dictionary(entries) }
            while let keyTag = try nextKey(scanner) {
                let key = keyTag.kind == .empty ? "" : try keyText(scanner)
                let value = try nextValue(scanner, after: "the key '\(key)'")
                entries[key] = try materialise(scanner, value, depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            return try scanner.leafValue(markup.tag, empty ? [] : scanner.readContent(of: markup.tag, keep: true))
        }
    }

    private func keyText(_ scanner: XMLPlistScanner) throws(PropertyListError) -> String {
        let bytes = try scanner.readContent(of: .key, keep: true)
        guard let key = String(validating: bytes, as: UTF8.self) else { throw scanner.failure("a <key> is not valid UTF-8") }
        return key
    }

    /// Walks the value whose start tag was just read without materialising it: checks its
    /// structure (and with `checkLeaves` the content of every leaf), records it into `node` down to
    /// `shapeDepth` levels, and returns its element count for containers.
    @discardableResult
    func walk(
        _ scanner: XMLPlistScanner, _ markup: PlistMarkup, depth: Int, node: ShapeAccumulator?, shapeDepth: Int,
        checkLeaves: Bool
    ) throws(PropertyListError) -> Int? {
        guard depth <= Self.maxNesting else { throw scanner.failure("values nested more than \(Self.maxNesting) levels deep") }
        let empty = markup.kind == .empty
        let deeper = shapeDepth > 0 ? node : nil
        switch markup.tag {
        case .array:
            var count = 0
            if !empty {
                while let element = try nextElement(scanner) {
                    try walk(scanner, element, depth: depth + 1, node: deeper?.elementNode(), shapeDepth: shapeDepth - 1, checkLeaves: checkLeaves)
                    count += 1
                }
            }
            node?.record("array", count: count)
            return count
        case .dict:
            var count = 0
            if !empty {
                while let keyTag = try nextKey(scanner) {
                    var key = ""
                    if keyTag.kind != .empty {
                        if deeper != nil || checkLeaves { key = try keyText(scanner) } else { _ = try scanner.readContent(of: .key, keep: false) }
                    }
                    let value = try nextValue(scanner, after: deeper == nil ? "a <key>" : "the key '\(ShapeAccumulator.boundedKey(key))'")
                    try walk(scanner, value, depth: depth + 1, node: deeper?.child(key), shapeDepth: shapeDepth - 1, checkLeaves: checkLeaves)
                    count += 1
                }
            }
            node?.record("dictionary", count: count)
            return count
        default:
            if checkLeaves {
                _ = try scanner.leafValue(markup.tag, empty ? [] : scanner.readContent(of: markup.tag, keep: true))
            } else if !empty {
                _ = try scanner.readContent(of: markup.tag, keep: false)
            }
            node?.record(markup.tag.typeName)
            return nil
        }
    }
}
