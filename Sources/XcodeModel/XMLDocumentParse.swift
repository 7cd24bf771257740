import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One run of Foundation's `XMLParser` over a whole document, configured the one safe way for
/// files a user hands in (no namespaces, never resolving external entities), with where it
/// stopped and, for a malformed document, why in words.
///
/// ```swift
/// let parsed = XMLDocumentParse(data, delegate: delegate)
/// if let reason = parsed.failure { throw … "line \(parsed.line): \(reason)" }
/// ```
package struct XMLDocumentParse {
    /// The 1-based line where the parser stopped (the end of the document, or the error).
    package let line: Int
    /// The 1-based column where the parser stopped.
    package let column: Int
    /// Why the document is malformed, in words; `nil` when it parsed.
    package let failure: String?

    /// Parses `data`, reporting to `delegate`.
    package init(_ data: Data, delegate: some XMLParserDelegate) {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        let succeeded = parser.parse()
        line = max(parser.lineNumber, 1)
        column = max(parser.columnNumber, 1)
        // On Linux, libxml2 recovers from some errors and `parse()` still returns true.
        if !succeeded || parser.parserError != nil {
            failure = parser.parserError.map { XMLErrorText.reason(of: $0) } ?? "the parser stopped"
        } else {
            failure = nil
        }
    }
}
