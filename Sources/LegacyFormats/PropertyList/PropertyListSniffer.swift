import ObjectModel

/// Tells a property list's format from its first bytes, and says what other files look like.
enum PropertyListSniffer {
    static func format(of file: PlistFile) throws(PropertyListError) -> PropertyListDocument.Format {
        let headSize = Int(min(file.size, 256))
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(headSize, 1), alignment: 8)
        defer { scratch.deallocate() }
        let got = try file.read(at: 0, count: headSize, into: scratch)
        let head = Array(UnsafeRawBufferPointer(start: scratch, count: got))
        if head.starts(with: Array("bplist00".utf8)) { return .binary }
        func refuse(_ problem: String, _ hint: String = "Give a property list file (binary or XML).") -> PropertyListError {
            // What the file starts with is wrong: the place is its first byte.
            PropertyListError(path: file.path, offset: 0, problem: problem, hint: hint, failureKind: .badInput)
        }
        if head.starts(with: Array("bplist".utf8)) {
            let version = String(decoding: head.prefix(8), as: UTF8.self)
            throw refuse("a binary property list of version '\(version)', which is not read (only bplist00)",
                         "Convert it on a Mac with `plutil -convert xml1`.")
        }
        if head.isEmpty { throw refuse("the file is empty, not a property list") }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw refuse("an XML file in UTF-16, which is not read (only UTF-8)", "Convert it with `plutil -convert xml1` or iconv.")
        }
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        for start in ["<?xml", "<plist", "<!DOCTYPE plist", "<!--"] where text.starts(with: Array(start.utf8)) {
            return .xml
        }
        if FileContent.isSQLite(head) { throw refuse("an SQLite database, not a property list") }
        if let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "(") {
            throw refuse("text starting with '\(Character(Unicode.Scalar(first)))': an old-style (OpenStep) property list or JSON, which is not read",
                         "Convert it on a Mac with `plutil -convert xml1`.")
        }
        if let first = text.first, first == UInt8(ascii: "<") {
            throw refuse("XML or HTML whose first element is not <plist>: \(quoted(text))")
        }
        let printable = text.prefix(40).allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
        if printable, !text.isEmpty { throw refuse("text that is not a property list: \(quoted(text))") }
        let bytes = head.prefix(8).map { byte -> String in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        throw refuse("binary data that is not a property list (it starts with bytes \(bytes.joined(separator: " ")))")
    }

    private static func quoted(_ text: ArraySlice<UInt8>) -> String {
        "'" + String(decoding: text.prefix(30), as: UTF8.self).prefix { $0 != "\n" } + "'"
    }
}
