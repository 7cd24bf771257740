import Foundation
import XcodeModel
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The objects of a Core Data XML store (the format of `xcmapping.xml`): each `<object type= id=>`
/// with its `<attribute name= type=>` values and `<relationship name= idrefs=>` references.
struct CoreDataXMLStoreObject: Sendable {
    /// The object's entity, upper-cased as Xcode writes it (`XDDEVENTITYMAPPING`).
    var type: String
    /// Its identifier (`z103`).
    var id: String
    /// Attribute values as written, by attribute name (binary values are base64 text).
    var attributes: [String: String]
    /// Referenced object identifiers, by relationship name.
    var relationships: [String: [String]]
}

/// Parses a Core Data XML store with Foundation's `XMLParser`; unknown elements are skipped.
final class CoreDataXMLStoreParser: NSObject, XMLParserDelegate {
    /// Files larger than this are refused (real mapping models are under a megabyte, and
    /// `XMLParser(data:)` fails on large inputs).
    static let maximumFileSize = 8 * 1024 * 1024

    private let path: String
    private var objects: [CoreDataXMLStoreObject] = []
    private var current: CoreDataXMLStoreObject?
    private var attributeName: String?
    private var text = ""
    private var failure: XcodeMappingError?
    private var depth = 0
    private var sawDatabase = false

    private init(path: String) {
        self.path = path
    }

    /// The objects of `data`, the content of the file at `path`.
    static func parse(_ data: Data, path: String) throws(XcodeMappingError) -> [CoreDataXMLStoreObject] {
        let delegate = CoreDataXMLStoreParser(path: path)
        let parsed = XMLDocumentParse(data, delegate: delegate)
        if let failure = delegate.failure { throw failure }
        if let reason = parsed.failure {
            throw XcodeMappingError(path: path, problem: "malformed XML at line \(parsed.line): \(reason)",
                                    hint: "restore the mapping model from version control or re-save it in Xcode")
        }
        guard delegate.sawDatabase else {
            throw XcodeMappingError(path: path, problem: "not a Core Data XML store (no <database> element)",
                                    hint: "an .xcmappingmodel folder holds the xcmapping.xml Xcode writes")
        }
        return delegate.objects
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = XcodeMappingError(path: path, problem: "malformed XML at line \(max(parser.lineNumber, 1)): \(XMLErrorText.reason(of: parseError))",
                                    hint: "restore the mapping model from version control or re-save it in Xcode")
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        depth += 1
        switch (depth, elementName) {
        case (1, "database"):
            sawDatabase = true
        case (2, "object"):
            current = CoreDataXMLStoreObject(type: attributes["type"] ?? "", id: attributes["id"] ?? "", attributes: [:], relationships: [:])
        case (3, "attribute"):
            attributeName = attributes["name"]
            text = ""
        case (3, "relationship"):
            guard let name = attributes["name"] else { return }
            let ids = (attributes["idrefs"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            current?.relationships[name] = ids
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if attributeName != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        switch (depth, elementName) {
        case (2, "object"):
            if let finished = current { objects.append(finished) }
            current = nil
        case (3, "attribute"):
            if let name = attributeName { current?.attributes[name] = text }
            attributeName = nil
        default:
            break
        }
        depth -= 1
    }
}
