/// Where a command writes its result: one JSON document under `--json`, text otherwise.
///
/// Each command emits exactly one result through ``emit(_:text:)``, so that `--json` output is
/// always a single parsable document.
///
/// ```swift
/// try context.output.emit(report) {
///     TextTable(columns: ["name", "count"], rows: report.rows).render()
/// }
/// ```
struct CommandOutput: Sendable {
    /// Whether the result is written as JSON.
    let json: Bool
    /// Receives the finished text; stdout unless a test substitutes its own.
    let sink: @Sendable (String) -> Void

    /// Creates an output writing to stdout.
    init(json: Bool) {
        self.init(json: json) { StandardStream.output.write($0) }
    }

    /// Creates an output writing to `sink`.
    init(json: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.json = json
        self.sink = sink
    }

    /// Writes the result: `document` as JSON under `--json`, else the text that `text` builds.
    ///
    /// - Throws: `EncodingError` when the document cannot be encoded.
    func emit<Document: Encodable>(_ document: Document, text: () -> String) throws {
        if json {
            sink(try JSONOutput.render(document))
        } else {
            sink(text())
        }
    }
}
