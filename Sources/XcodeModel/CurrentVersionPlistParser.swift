import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Finds the top-level entries of a small XML property list (an `.xccurrentversion`): each key
/// with the element that holds its value, that value's text, and the line it starts on.
final class CurrentVersionPlistParser: NSObject, XMLParserDelegate {
    /// A value of the root dictionary.
    struct Entry {
        /// The element holding it (`string`, `integer`, `dict`, …).
        var element: String
        /// Its text, for a leaf element.
        var text: String
        /// The line of its start tag.
        var line: Int
    }

    /// The root element below `<plist>` (`dict`, `array`, …), once seen.
    private(set) var rootElement: String?
    /// The root dictionary's entries by key.
    private(set) var entries: [String: Entry] = [:]
    private var path: [String] = []
    private var text = ""
    private var pendingKey: String?
    private var current: (key: String, entry: Entry)?

    /// The element that is still open at the end of the parse (a file cut short), if any.
    var unclosedElement: String? { path.last }

    /// The element path depth of the root value (`plist` then the value).
    private var rootDepth: Int { path.first == "plist" ? 2 : 1 }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        if path.count == rootDepth, name != "plist" { rootElement = name }
        guard rootElement == "dict", path.count == rootDepth + 1 else { return }
        if name != "key", let key = pendingKey {
            current = (key, Entry(element: name, text: "", line: parser.lineNumber))
            pendingKey = nil
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { path.removeLast() }
        guard rootElement == "dict", path.count == rootDepth + 1 else { return }
        if name == "key" {
            pendingKey = text
        } else if let (key, found) = current {
            var entry = found
            entry.text = text
            entries[key] = entry
            current = nil
        }
    }
}
