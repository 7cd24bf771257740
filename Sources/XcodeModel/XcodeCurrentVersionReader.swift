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
    /// - Throws: ``XcodeModelError`` with `.missingInput` when the file cannot be read, and
    ///   `.badInput` when it is not a property list or has no usable `_XCCurrentVersionName`.
    public func currentVersionName(at url: URL) throws(XcodeModelError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw XcodeModelError(
                path: url.path, problem: "cannot read the current-version file",
                hint: "check that the file exists and is readable", failureKind: .missingInput)
        }
        let hint = "the file must be a property list whose key \(Self.currentVersionKey) names a version, e.g. \"Model 2.xcdatamodel\"; choose the current version again in Xcode"
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw XcodeModelError(path: url.path, problem: "not a property list", hint: hint)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw XcodeModelError(path: url.path, problem: "the property list is not a dictionary", hint: hint)
        }
        guard let raw = dictionary[Self.currentVersionKey] as? String else {
            throw XcodeModelError(path: url.path, problem: "no \(Self.currentVersionKey) string", hint: hint)
        }
        var name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.hasSuffix(".xcdatamodel") { name.removeLast(".xcdatamodel".count) }
        guard !name.isEmpty else {
            throw XcodeModelError(path: url.path, problem: "\(Self.currentVersionKey) is empty", hint: hint)
        }
        return name
    }
}
