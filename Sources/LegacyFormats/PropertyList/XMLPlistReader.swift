import Foundation

/// Reads plist XML in streaming passes over an ``XMLPlistScanner``: every operation starts a new
/// pass from the top of the file and materialises only what it returns.
struct XMLPlistReader {
    let file: PlistFile
    /// Where the root dictionary's values start, as far as reads have found.
    let index = XMLTopLevelIndex()
    /// Deeper nesting than this is refused (it would only come from a crafted or broken file).
    static let maxNesting = 200

    /// A scanner positioned just after the start tag of the value at `path`, and that tag; `nil`
    /// when a key on the way is absent or a value on the way is not a dictionary. A top-level key
    /// whose place ``index`` knows is read from there.
    func locate(_ path: [String]) throws(PropertyListError) -> (XMLPlistScanner, PlistMarkup)? {
        var remaining = path[...]
        let scanner: XMLPlistScanner
        var current: PlistMarkup
        if let first = path.first, let place = index.place(of: first) {
            scanner = XMLPlistScanner(file: file, startOffset: place.offset, line: place.line)
            current = try nextValue(scanner, after: "the key '\(first)'")
            remaining = remaining.dropFirst()
        } else {
            if !path.isEmpty, index.isComplete { return nil }
            scanner = XMLPlistScanner(file: file)
            current = try root(scanner).value
        }
        var depth = path.count - remaining.count
        for key in remaining {
            guard current.tag == .dict, current.kind == .open else { return nil }
            var found: PlistMarkup?
            while found == nil {
                guard let keyTag = try nextKey(scanner) else {
                    if depth == 0 { index.markComplete() }
                    return nil
                }
                let name = try lookupKeyName(scanner, keyTag)
                if depth == 0 { index.record(name, at: .init(offset: scanner.offset, line: scanner.line)) }
                let value = try nextValue(scanner, after: "the key '\(name)'")
                if name == key { found = value } else { try skip(scanner, value, recordingAs: depth == 0 ? name : nil) }
            }
            if let found { current = found }
            depth += 1
        }
        return (scanner, current)
    }

    /// Reads on from the end of a top-level value to the end of the root dictionary, recording
    /// where each remaining key's value starts; a reading error only stops the recording (the
    /// whole-file check reports it).
    func indexRemainingTopLevelKeys(_ scanner: XMLPlistScanner) {
        do {
            while let keyTag = try nextKey(scanner) {
                let name = try lookupKeyName(scanner, keyTag)
                index.record(name, at: .init(offset: scanner.offset, line: scanner.line))
                try skip(scanner, try nextValue(scanner, after: "the key '\(name)'"), recordingAs: name)
            }
            index.markComplete()
        } catch {
            return
        }
    }

    /// The text of the `<key>` just read, as a lookup compares it (no UTF-8 check: a key that is
    /// not valid UTF-8 matches no key asked for).
    private func lookupKeyName(_ scanner: XMLPlistScanner, _ keyTag: PlistMarkup) throws(PropertyListError) -> String {
        keyTag.kind == .empty ? "" : String(decoding: try scanner.readContent(of: .key, keep: true), as: UTF8.self)
    }

    /// Reads past the value whose start tag was just read; for a top-level value (`name` given),
    /// records in ``index`` what it held.
    private func skip(_ scanner: XMLPlistScanner, _ value: PlistMarkup, recordingAs name: String?) throws(PropertyListError) {
        let count = try walk(scanner, value, depth: 1, node: nil, shapeDepth: 0, checkLeaves: false)
        if let name { index.record(name, extent: .init(typeName: value.tag.typeName, count: count)) }
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
    func nextValue(_ scanner: XMLPlistScanner, after what: @autoclosure () -> String) throws(PropertyListError) -> PlistMarkup {
        guard let markup = try scanner.nextMarkup() else { throw scanner.failure("the file ends where a value should follow \(what())") }
        guard markup.tag.isValue, markup.kind != .close else {
            throw scanner.failure("expected a value after \(what()), found \(markup.written)")
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

    /// The values of `selection`'s keys in the element whose start tag was just read (in its
    /// order, `nil` where absent; the last of a repeated key, as ``materialise(_:_:depth:)``
    /// keeps it), or `nil` and the element's type name when it is not a dictionary. The values of
    /// other keys are checked as ``walk(_:_:depth:node:shapeDepth:checkLeaves:)`` checks leaves and
    /// skipped, not built: the element is checked whole, so that a check beside the load may leave
    /// it out (``check(_:_:depth:leavingToTheLoad:)``).
    func selectedValues(_ scanner: XMLPlistScanner, _ markup: PlistMarkup, selection: PropertyListKeySelection,
                        depth: Int) throws(PropertyListError) -> ([PropertyListValue?]?, String) {
        guard markup.tag == .dict else {
            try walk(scanner, markup, depth: depth, node: nil, shapeDepth: 0, checkLeaves: true)
            return (nil, markup.tag.typeName)
        }
        var values = [PropertyListValue?](repeating: nil, count: selection.keys.count)
        if markup.kind == .empty { return (values, "dictionary") }
        while let keyTag = try nextKey(scanner) {
            let bytes = keyTag.kind == .empty ? [] : try scanner.readContent(of: .key, keep: true)
            let slot = selection.slot(ofBytes: bytes)
            if slot == nil, bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) == nil {
                throw scanner.failure("a <key> is not valid UTF-8")
            }
            let value = try nextValue(scanner, after: "the key '\(String(decoding: bytes, as: UTF8.self))'")
            if let slot {
                values[slot] = try materialise(scanner, value, depth: depth + 1)
            } else {
                try walk(scanner, value, depth: depth + 1, node: nil, shapeDepth: 0, checkLeaves: true)
            }
        }
        return (values, "dictionary")
    }

    /// Checks the value whose start tag was just read as `walk` with `checkLeaves` does, except
    /// the values at `paths` (key paths below this value; `[]` is the value itself): of those only
    /// the structure is checked, because a load reads them through ``selectedValues(_:_:selection:depth:)``
    /// or ``materialise(_:_:depth:)``, which check their leaves. Only the first of a repeated key
    /// is left to the load: a lookup finds that one.
    func check(_ scanner: XMLPlistScanner, _ markup: PlistMarkup, depth: Int, leavingToTheLoad paths: [[String]]) throws(PropertyListError) {
        guard !paths.isEmpty else {
            try walk(scanner, markup, depth: depth, node: nil, shapeDepth: 0, checkLeaves: true)
            return
        }
        guard !paths.contains([]), markup.tag == .dict, markup.kind == .open, depth <= Self.maxNesting else {
            try walk(scanner, markup, depth: depth, node: nil, shapeDepth: 0, checkLeaves: !paths.contains([]))
            return
        }
        var seen: Set<String> = []
        while let keyTag = try nextKey(scanner) {
            let key = keyTag.kind == .empty ? "" : try keyText(scanner)
            let value = try nextValue(scanner, after: "a <key>")
            let below = seen.insert(key).inserted ? paths.compactMap { $0.first == key ? Array($0.dropFirst()) : nil } : []
            try check(scanner, value, depth: depth + 1, leavingToTheLoad: below)
        }
    }

    private func keyText(_ scanner: XMLPlistScanner) throws(PropertyListError) -> String {
        let bytes = try scanner.readContent(of: .key, keep: true)
        guard let key = XMLPlistScanner.utf8String(bytes) else { throw scanner.failure("a <key> is not valid UTF-8") }
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
