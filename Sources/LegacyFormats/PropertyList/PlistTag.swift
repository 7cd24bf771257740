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

    /// The tag whose name is the `length` bytes at `bytes`, if any (names are compared as their
    /// ASCII bytes packed into an integer, which is fast even in debug builds).
    static func named(_ bytes: UnsafePointer<UInt8>, length: Int) -> PlistTag? {
        guard length >= 3, length <= 7 else { return nil }
        var packed: UInt64 = 0
        for index in 0..<length { packed = packed << 8 | UInt64(bytes[index]) }
        switch packed {
        case 0x706C697374: return .plist
        case 0x64696374: return .dict
        case 0x6B6579: return .key
        case 0x6172726179: return .array
        case 0x737472696E67: return .string
        case 0x696E7465676572: return .integer
        case 0x7265616C: return .real
        case 0x74727565: return .`true`
        case 0x66616C7365: return .`false`
        case 0x64617465: return .date
        case 0x64617461: return .data
        default: return nil
        }
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
