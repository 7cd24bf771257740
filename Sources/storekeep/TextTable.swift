/// A plain-text table with aligned columns, for human output.
///
/// ```swift
/// var table = TextTable(columns: [.init("entity"), .init("records", alignment: .right)])
/// table.append(["Note", "1204"])
/// print(table.render())
/// // entity  records
/// // ------  -------
/// // Note       1204
/// ```
struct TextTable: Sendable {
    /// How a column's cells line up.
    enum Alignment: Sendable {
        /// Text starts at the column's left edge.
        case left
        /// Text ends at the column's right edge (numbers).
        case right
    }

    /// A column: its heading and alignment.
    struct Column: Sendable {
        /// The heading.
        var title: String
        /// The alignment of the heading and the cells.
        var alignment: Alignment

        /// Creates a column.
        init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    var columns: [Column]
    /// The rows; a short row is padded with empty cells, extra cells are dropped.
    var rows: [[String]]
    /// Whether the headings and an underline are printed above the rows.
    var showsHeader: Bool
    /// The space between columns.
    var separator = "  "
    /// The most characters a cell shows: a longer one is cut and ends with "…", so that one huge
    /// value (a key or name read from a file) cannot widen every row of the table with it.
    var maxCellWidth = TextTable.defaultMaxCellWidth
    /// ``maxCellWidth`` unless a table sets its own: wide enough for every sentence storekeep writes.
    static let defaultMaxCellWidth = 1_000

    /// Creates a table.
    init(columns: [Column], rows: [[String]] = [], showsHeader: Bool = true) {
        self.columns = columns
        self.rows = rows
        self.showsHeader = showsHeader
    }

    /// Adds a row.
    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// Whether ``render()`` cuts at least one cell to ``maxCellWidth``.
    var cutsCells: Bool {
        rows.contains { row in row.prefix(columns.count).contains { Self.exceeds($0, maxCellWidth) } }
    }

    /// The table as lines joined by newlines, without trailing spaces.
    func render() -> String {
        let limit = max(maxCellWidth, 2)
        let cells = rows.map { row in columns.indices.map { $0 < row.count ? Self.cut(row[$0], to: limit) : "" } }
        var lines: [[String]] = []
        if showsHeader {
            lines.append(columns.map(\.title))
        }
        lines.append(contentsOf: cells)
        let widths = columns.indices.map { index in lines.map { $0[index].count }.max() ?? 0 }
        if showsHeader {
            lines.insert(widths.map { String(repeating: "-", count: $0) }, at: 1)
        }
        return lines.map { line in
            columns.indices.map { index in
                pad(line[index], to: widths[index], alignment: columns[index].alignment)
            }
            .joined(separator: separator)
            .trimmingTrailingSpaces()
        }
        .joined(separator: "\n")
    }

    /// `text`, or its first `limit - 1` characters and "…" when it has more than `limit`.
    private static func cut(_ text: String, to limit: Int) -> String {
        exceeds(text, limit) ? text.prefix(limit - 1) + "…" : text
    }

    /// Whether `text` has more than `limit` characters (without counting all of a huge one).
    private static func exceeds(_ text: String, _ limit: Int) -> Bool {
        text.utf8.count > limit && text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex).map { $0 < text.endIndex } == true
    }

    /// `text` padded with spaces to `width` characters.
    private func pad(_ text: String, to width: Int, alignment: Alignment) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return alignment == .left ? text + padding : padding + text
    }
}

private extension String {
    /// The string without spaces at its end.
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }
}
