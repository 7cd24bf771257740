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
    /// Read with storekeep's own property list reader, so that a damaged file is told with its
    /// line (XML) or byte (binary) and what is wrong there.
    ///
    /// - Throws: ``XcodeModelError`` naming the file: `.missingInput` when it cannot be read, and
    ///   `.badInput` (with the line or byte) when it is not a property list or has no usable
    ///   `_XCCurrentVersionName`.
    public func currentVersionName(at url: URL) throws(XcodeModelError) -> String {
        let hint = "the file must be a property list whose key \(Self.currentVersionKey) names a version, e.g. \"Model 2.xcdatamodel\"; choose the current version again in Xcode"
        let plist: PropertyListValue?
        do {
            plist = try PropertyListDocument.open(at: url).value(atKeyPath: "")
        } catch {
            guard error.failureKind == .badInput else {
                throw XcodeModelError(path: url.path, problem: "cannot read the current-version file: \(error.problem)",
                                      hint: "check that the file exists and is readable", failureKind: .missingInput)
            }
            throw XcodeModelError(path: url.path, line: error.line,
                                  problem: "not a property list: " + (error.offset.map { "byte \($0): " } ?? "") + error.problem, hint: hint)
        }
        guard case .dictionary(let dictionary)? = plist else {
            throw XcodeModelError(path: url.path, problem: "the property list is not a dictionary", hint: hint)
        }
        guard case .string(let raw)? = dictionary[Self.currentVersionKey] else {
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
