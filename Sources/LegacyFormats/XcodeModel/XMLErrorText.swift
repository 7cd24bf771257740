import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Words for `XMLParser` errors, whose own description is often empty on Linux.
enum XMLErrorText {
    static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let known = words(for: nsError.code) { return known }
        let text = nsError.localizedDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text != "(null)", !text.hasPrefix("The operation could not be completed") { return text }
        return "XML error \(nsError.code)"
    }

    private static func words(for code: Int) -> String? {
        switch XMLParser.ErrorCode(rawValue: code) {
        case .tagNameMismatchError: return "an end tag does not match its start tag"
        case .prematureDocumentEndError: return "the document ends too early (an element is not closed)"
        case .emptyDocumentError: return "the document is empty"
        case .notWellBalancedError: return "the document is not well balanced"
        case .attributeNotStartedError, .attributeNotFinishedError, .attributeHasNoValueError:
            return "an attribute is not written as name=\"value\""
        case .attributeRedefinedError: return "an attribute is given twice"
        case .ltRequiredError, .gtRequiredError: return "a tag is not closed with '>'"
        case .lessThanSymbolInAttributeError: return "'<' inside an attribute value"
        case .entityRefAtEOFError, .entityReferenceWithoutNameError, .entityReferenceMissingSemiError,
             .undeclaredEntityError:
            return "a broken entity reference (write & as &amp;)"
        case .invalidCharacterError, .invalidCharacterInEntityError, .invalidCharacterRefError:
            return "an invalid character"
        case .unfinishedTagError: return "a tag is not finished"
        case .documentStartError: return "the file does not start with XML"
        case .characterRefAtEOFError: return "a character reference at the end of the file"
        case .stringNotClosedError, .stringNotStartedError: return "a quoted string is not closed"
        case .encodingNotSupportedError, .unknownEncodingError: return "an unsupported text encoding"
        case .commentNotFinishedError: return "a comment is not closed"
        case .nameRequiredError: return "an element or attribute name is missing"
        case .delegateAbortedParseError: return nil
        default: return nil
        }
    }
}
