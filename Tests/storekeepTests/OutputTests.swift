import Foundation
import Synchronization
import Testing

@testable import storekeep

/// Unit tests of the JSON writer, the command output and the text table.
@Suite("output")
struct OutputTests {
    /// A sample document with a date and unsorted keys.
    struct Sample: Encodable {
        var zeta = 1
        var alpha = "a/b"
        var when = Date(timeIntervalSince1970: 0)
    }

    @Test("JSON has sorted keys, ISO-8601 dates and unescaped slashes")
    func jsonFormat() throws {
        let text = try JSONOutput.render(Sample())
        let alpha = try #require(text.range(of: "alpha"))
        let zeta = try #require(text.range(of: "zeta"))
        #expect(alpha.lowerBound < zeta.lowerBound)
        #expect(text.contains(#""when" : "1970-01-01T00:00:00Z""#))
        #expect(text.contains(#""a/b""#))
    }

    @Test("emit writes JSON under --json and text otherwise, once")
    func emit() throws {
        let written = Mutex<[String]>([])
        let sink: @Sendable (String) -> Void = { text in written.withLock { $0.append(text) } }
        try CommandOutput(json: true, sink: sink).emit(Sample()) { "text" }
        try CommandOutput(json: false, sink: sink).emit(Sample()) { "text" }
        let lines = written.withLock { $0 }
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("{"))
        #expect(lines[1] == "text")
    }

    @Test("a table aligns columns, right-aligns numbers and pads short rows")
    func table() {
        var table = TextTable(columns: [TextTable.Column("entity"), TextTable.Column("records", alignment: .right)])
        table.append(["Note", "1204"])
        table.append(["Attachment"])
        #expect(table.render() == """
            entity      records
            ----------  -------
            Note           1204
            Attachment
            """)
    }

    @Test("a table without header has only the rows")
    func tableWithoutHeader() {
        let table = TextTable(
            columns: [TextTable.Column("k"), TextTable.Column("v")], rows: [["a", "1"], ["bbb", "2"]], showsHeader: false)
        #expect(table.render() == "a    1\nbbb  2")
    }
}
