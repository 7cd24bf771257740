/// All versions of a data model, as an `.xcdatamodeld` bundle holds them.
///
/// ```swift
/// let bundle = try XcodeModelReader().readModel(at: url)   // LegacyFormats
/// bundle.current.versionName      // from .xccurrentversion, or the only version
/// try bundle.version(named: "SpeechTimer 1")
/// ```
public struct ModelBundle: Hashable, Sendable, Codable {
    /// The model's name (the bundle name without extension).
    public var name: String
    /// Every version, ordered by name as people number them ("X", "X 2", ..., "X 10").
    public var versions: [ManagedModel]
    /// The name of the current version.
    public var currentVersionName: String

    /// Creates a bundle; `versions` is re-ordered by ``ModelBundle/versionOrder(_:_:)``.
    public init(name: String, versions: [ManagedModel], currentVersionName: String) {
        self.name = name
        self.versions = versions.sorted { Self.versionOrder($0.versionName, $1.versionName) }
        self.currentVersionName = currentVersionName
    }

    /// The current version (the first version when the current name matches none, and an empty
    /// model named after the bundle when there are no versions at all, e.g. a decoded empty bundle).
    public var current: ManagedModel {
        versions.first { $0.versionName == currentVersionName }
            ?? versions.first
            ?? ManagedModel(name: name, versionName: currentVersionName, entities: [])
    }

    /// The version named `name` (with or without the `.xcdatamodel` extension).
    ///
    /// - Throws: ``ModelLookupError`` listing the versions that exist.
    public func version(named name: String) throws(ModelLookupError) -> ManagedModel {
        let wanted = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
        guard let model = versions.first(where: { $0.versionName == wanted }) else {
            throw ModelLookupError(model: self.name, wanted: wanted, available: versions.map(\.versionName))
        }
        return model
    }

    /// Orders version names the way people number them: by their text, with runs of digits compared as numbers.
    public static func versionOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: [.numeric]) == .orderedAscending
    }
}

import Foundation
