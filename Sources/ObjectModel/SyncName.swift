/// storekeep's one rule for the names that become folder names in a sync container: content
/// names and peer IDs. 1 to 200 ASCII letters, digits, `.`, `_` or `-`, not starting with `.`
/// (so never empty, `.` or `..`, never a path, never hidden, the same on every file system).
///
/// ```swift
/// SyncName.isValid("notes-app")   // true
/// SyncName.isValid("../etc")      // false
/// SyncName.isValid("café")        // false: ASCII only
/// ```
public enum SyncName {
    /// The longest name, in bytes (every allowed character is one byte).
    public static let maximumLength = 200

    /// The rule in words, for an operator's hint.
    public static let rule = "use 1 to 200 ASCII letters, digits, '.', '_' or '-', not starting with '.'"

    /// Whether `name` can be a content name or a peer ID.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes.first != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// A valid name made from `text` (a model's name): each character the rule refuses becomes
    /// `-`, leading dots are dropped, the result cut at ``maximumLength``; `fallback` when nothing is left.
    ///
    /// ```swift
    /// SyncName.made(from: ".Notes App")   // "Notes-App"
    /// ```
    public static func made(from text: String, fallback: String = "storekeep") -> String {
        // Character by character (one `-` for an accented letter however it is encoded), as
        // content names made so far were: the same model name must keep giving the same name.
        let characters = text.map { character -> Character in
            let scalars = character.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first, isValid(String(scalar)) || scalar == "." else { return "-" }
            return character
        }.drop { $0 == "." }.prefix(maximumLength)
        let made = String(characters)
        return isValid(made) ? made : fallback
    }
}
