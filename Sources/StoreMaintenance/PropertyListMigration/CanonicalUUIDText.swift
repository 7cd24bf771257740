import Foundation

/// The global ID a mapping's `id:` key gives a record: a UUID in its canonical uppercase text,
/// anything else as it is (what `UUID(uuidString:)?.uuidString ?? text` gives, without building a
/// `UUID` for the common case of a text that is already canonical).
enum CanonicalUUIDText {
    /// `text` as an uppercase canonical UUID when it is a UUID, else `text` unchanged.
    static func canonical(_ text: String) -> String {
        var text = text
        let shape = text.withUTF8 { utf8 -> Shape in
            guard utf8.count == 36 else { return .other }
            var lowercase = false
            for (index, byte) in utf8.enumerated() {
                switch index {
                case 8, 13, 18, 23:
                    if byte != UInt8(ascii: "-") { return .other }
                default:
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"): break
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): lowercase = true
                    default: return .other
                    }
                }
            }
            return lowercase ? .lowercaseUUID : .canonicalUUID
        }
        switch shape {
        case .canonicalUUID: return text
        case .lowercaseUUID: return text.uppercased()
        case .other: return UUID(uuidString: text)?.uuidString ?? text
        }
    }

    private enum Shape { case canonicalUUID, lowercaseUUID, other }
}
