import Foundation

/// Words for `XMLParser` errors.
///
/// Both Foundations number `XMLParser` errors as libxml2 numbers its `xmlParserErrors` (Darwin's
/// `XMLParser.ErrorCode` raw values are libxml2's codes); on Linux `XMLParser.ErrorCode` is an
/// enumeration counted from 0 that does not match what the parser reports, and the error's own
/// description is empty. So the words here are looked up by libxml2's number.
package enum XMLErrorText {
    /// One phrase saying what is wrong, never a bare number.
    package static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let known = words(forCode: nsError.code) { return known }
        let text = nsError.localizedDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text != "(null)", !text.hasPrefix("The operation could not be completed") { return text }
        return "the XML is not well-formed (the parser's error \(nsError.code))"
    }

    /// Words for libxml2's error `code`, or `nil` for a code without them.
    package static func words(forCode code: Int) -> String? {
        switch code {
        case 1, 2: return "the XML parser failed (out of memory or an internal error)"
        case 3, 4: return "the file does not start with an XML element ('<' expected)"
        case 5: return "the document does not end where it should (an element is not closed, or text follows the root element)"
        case 6, 7, 8, 10, 11, 12, 13: return "a broken character reference (&#...;)"
        case 9: return "a character XML does not allow (a control character, or a character reference to one)"
        case 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 87, 88, 89, 90:
            return "a broken or unknown entity reference (write & as &amp;)"
        case 31, 32, 79, 81, 101: return "an unsupported or wrong text encoding"
        case 33, 34, 43, 44: return "a quoted value is not closed"
        case 35, 200, 201, 202, 203: return "a broken namespace declaration"
        case 36, 37, 84: return "a broken entity declaration"
        case 38: return "'<' inside an attribute value"
        case 39, 40, 41, 75: return "an attribute is not written as name=\"value\""
        case 42: return "an attribute is given twice in one element"
        case 45, 80: return "a comment is not closed (or holds '--')"
        case 46, 47: return "a processing instruction (<?...?>) is not closed"
        case 48, 49, 50, 51, 52, 53, 54, 55, 58, 59, 60, 61, 83, 94, 95: return "a broken document type declaration (<!DOCTYPE ...>)"
        case 56, 57, 78, 96, 97: return "a broken XML declaration (<?xml ...?>)"
        case 62, 63: return "a CDATA section is broken or not closed"
        case 64: return "a name starting with 'xml' that XML reserves"
        case 65, 66: return "a space is missing between two parts of a tag"
        case 67, 68, 69, 70, 71: return "an element or attribute name is missing where one is needed"
        case 72, 73, 74, 77: return "a tag is not closed with '>'"
        case 76: return "an end tag does not match its start tag"
        case 82: return "the document says it is standalone but needs an external entity"
        case 85: return "the document is not well balanced (an end tag without its start tag)"
        case 86: return "extra content where the document should end"
        case 91, 92: return "a broken URI"
        case 512: return nil  // the delegate stopped the parse: its own error says why
        default: return nil
        }
    }
}
