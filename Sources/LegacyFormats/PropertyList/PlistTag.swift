/// The elements a plist XML file may contain.
enum PlistTag: Int, CaseIterable {
    case plist, dict, key, array, string, integer, real, `true`, `false`, date, data

    /// The element name as written.
    var name: String { Self.names[rawValue] }

    /// Whether the element is a value (everything but `<plist>` and `<key>`).
    var isValue: Bool { self != .plist && self != .key }

    /// The type name of the value the element holds (see ``PropertyListValue/typeName``).
    var typeName: String {
        switch self {
        case .dict: return "dictionary"
        case .true, .false: return "boolean"
        default: return name
        }
    }

    private static let names = ["plist", "dict", "key", "array", "string", "integer", "real", "true", "false", "date", "data"]
    private static let nameBytes: [[UInt8]] = names.map { Array($0.utf8) }

    /// The tag whose name is the `length` bytes at `bytes`, if any.
    static func named(_ bytes: UnsafePointer<UInt8>, length: Int) -> PlistTag? {
        for (index, candidate) in nameBytes.enumerated() where candidate.count == length {
            var same = true
            for offset in 0..<length where candidate[offset] != bytes[offset] {
                same = false
                break
            }
            if same { return PlistTag(rawValue: index) }
        }
        return nil
    }
}

/// One tag read from plist XML.
struct PlistMarkup {
    /// Whether the tag opens, closes, or is empty (`<true/>`).
    enum Kind { case open, close, empty }

    let kind: Kind
    let tag: PlistTag

    /// How the tag is written, for error messages.
    var written: String {
        switch kind {
        case .open: return "<\(tag.name)>"
        case .close: return "</\(tag.name)>"
        case .empty: return "<\(tag.name)/>"
        }
    }
}
