import LegacyFormats
import ObjectModel

/// The human form of a property list's shape: one line per key path, with type, count and presence.
enum PropertyListShapeText {
    /// The text for `inspect` on a property list.
    /// The widest key path shown: a longer one is cut and ends with "…".
    static let keyPathWidth = 100

    static func render(_ report: PropertyListInspection) -> String {
        var lines = ["\(report.path): \(report.format) property list, \(report.bytes) bytes", ""]
        var table = TextTable(columns: [.init("key path"), .init("type"), .init("count", alignment: .right), .init("present")])
        table.maxCellWidth = keyPathWidth
        walk(report.root, path: "(root)", into: &table)
        lines.append(table.render())
        if let shortened = report.root.shortenedKeys {
            lines.append("")
            lines.append("note: keys longer than 256 bytes (met \(shortened) times) are shown as their first 48 characters, \"…\", their length and the start of their SHA-256")
        }
        if table.cutsCells {
            lines.append("note: key paths longer than \(keyPathWidth) characters are cut and end with \"…\" (--json shows them whole)")
        }
        return lines.joined(separator: "\n")
    }

    private static func walk(_ shape: PropertyListShape, path: String, into table: inout TextTable) {
        let types = shape.types.map { $0.count > 1 ? " (" + $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")" : "" } ?? ""
        // A key may hold any character: control characters (a NUL, a line feed) are shown as escapes.
        table.append([path.escapingControlCharacters(keeping: []), shape.type + types, shape.count.map(String.init) ?? "", shape.present.map(String.init) ?? ""])
        for (key, child) in (shape.children ?? [:]).sorted(by: { $0.key < $1.key }) {
            walk(child, path: path == "(root)" ? key : "\(path).\(key)", into: &table)
        }
        if let element = shape.element {
            walk(element, path: path + "[]", into: &table)
        }
    }
}
