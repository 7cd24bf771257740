/// Finding a name among a record's few names without hashing it, by the rule that makes such a
/// search agree with a `Dictionary`: the one place that rule is written, for ``AttributeValues``
/// and the store's per-entity column lists.
///
/// Only names of the same UTF-8 length are compared in a first pass: most names a search passes
/// over differ in length, and a length is one load. Texts of different lengths can still be equal
/// as Swift compares strings (canonical equivalence: `K` and U+212A KELVIN SIGN, `é` and `e` +
/// U+0301), but only when one of them is not ASCII; so a name not found that way is looked for
/// again, comparing every name, unless it and every name searched are ASCII.
public enum NameSearch {
    /// The position of `name` among the `count` names `nameAt` gives, searched from `start`
    /// (wrapping round), or `nil`.
    ///
    /// - Parameters:
    ///   - namesAreASCII: whether every searched name is ASCII.
    ///   - nameIsASCII: whether `name` is, when the caller knows (a model's names, checked once);
    ///     `nil` to check it, only when the first pass misses.
    @inlinable
    public static func position(
        of name: String, count: Int, from start: Int = 0, namesAreASCII: Bool, nameIsASCII: Bool? = nil, nameAt: (Int) -> String
    ) -> Int? {
        guard count > 0 else { return nil }
        let length = name.utf8.count
        var index = start < count ? start : 0
        for _ in 0..<count {
            let candidate = nameAt(index)
            if candidate.utf8.count == length, candidate == name { return index }
            index = index + 1 == count ? 0 : index + 1
        }
        if namesAreASCII, nameIsASCII ?? isASCII(name) { return nil }
        return (0..<count).first { nameAt($0) == name }
    }

    /// Whether `text` is all ASCII (one pass over its UTF-8, no per-byte branching).
    public static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var union: UInt8 = 0
            for byte in bytes { union |= byte }
            return union < 0x80
        }
    }
}
