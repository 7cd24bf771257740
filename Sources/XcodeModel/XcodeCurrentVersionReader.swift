import Foundation
import ObjectModel

/// Reads the `.xccurrentversion` file of an `.xcdatamodeld` bundle: an XML property list whose
/// key `_XCCurrentVersionName` names the current version folder.
///
/// ```swift
/// let name = try XcodeCurrentVersionReader().currentVersionName(at: bundle.appendingPathComponent(".xccurrentversion"))
/// // "SpeechTimer 2"
/// ```
public struct XcodeCurrentVersionReader: Sendable {
    /// The property list key naming the current version.
    public static let currentVersionKey = "_XCCurrentVersionName"

    /// Creates a reader.
    public init() {}

    /// The current version's name, without the `.xcdatamodel` extension.
    ///
    /// A damaged file is told with its line (XML) and what is wrong there.
    ///
    /// - Throws: ``XcodeModelError`` naming the file: `.missingInput` when it cannot be read, and
    ///   `.badInput` (with the line when known) when it is not a property list or has no usable
    ///   `_XCCurrentVersionName`.
    public func currentVersionName(at url: URL) throws(XcodeModelError) -> String {
        let hint = "the file must be a property list whose key \(Self.currentVersionKey) names a version, e.g. \"Model 2.xcdatamodel\"; choose the current version again in Xcode"
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw XcodeModelError(path: url.path, problem: "cannot read the current-version file: \(error.localizedDescription)",
                                  hint: "check that the file exists and is readable", failureKind: .missingInput)
        }
        guard data.count <= 1 << 20 else {
            throw XcodeModelError(path: url.path, problem: "not a current-version file: \(data.count) bytes, where Xcode writes a few hundred", hint: hint)
        }
        let raw: String
        if data.starts(with: Array("bplist".utf8)) {
            let plist: Any
            do {
                plist = try PropertyListSerialization.propertyList(from: data, format: nil)
            } catch {
                throw XcodeModelError(path: url.path, problem: "not a property list: a damaged binary property list", hint: hint)
            }
            guard let dictionary = plist as? [String: Any] else {
                throw XcodeModelError(path: url.path, problem: "the property list is not a dictionary", hint: hint)
            }
            guard let name = dictionary[Self.currentVersionKey] as? String else {
                throw XcodeModelError(path: url.path, problem: "no \(Self.currentVersionKey) string", hint: hint)
            }
            raw = name
        } else {
            let reader = CurrentVersionPlistParser()
            let parsed = XMLDocumentParse(data, delegate: reader)
            if let reason = parsed.failure {
                throw XcodeModelError(path: url.path, line: parsed.line, problem: "not a property list: malformed XML: \(reason)", hint: hint)
            }
            if let open = reader.unclosedElement {
                throw XcodeModelError(path: url.path, line: parsed.line, problem: "not a property list: malformed XML: the file ends inside <\(open)>", hint: hint)
            }
            guard reader.rootElement == "dict" else {
                throw XcodeModelError(path: url.path, problem: "the property list is not a dictionary", hint: hint)
            }
            guard let entry = reader.entries[Self.currentVersionKey] else {
                throw XcodeModelError(path: url.path, problem: "no \(Self.currentVersionKey) string", hint: hint)
            }
            guard entry.element == "string" else {
                throw XcodeModelError(path: url.path, line: entry.line,
                                      problem: "\(Self.currentVersionKey) is an <\(entry.element)>, not a <string>", hint: hint)
            }
            raw = entry.text
        }
        var name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.hasSuffix(".xcdatamodel") { name.removeLast(".xcdatamodel".count) }
        guard !name.isEmpty else {
            throw XcodeModelError(path: url.path, problem: "\(Self.currentVersionKey) is empty", hint: hint)
        }
        return name
    }
}
