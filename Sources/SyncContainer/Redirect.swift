import Foundation

/// What a rekeyed content name says (`<container>/<old name>/redirect.json`): its content moved to
/// another content name; every peer imports what remains here, then follows.
public struct Redirect: Codable, Hashable, Sendable {
    /// The redirect format (1).
    public var format: Int
    /// The content name left, and the one its content moved to.
    public var from: String
    public var to: String
    /// The model version hash of the new namespace.
    public var modelHash: String
    /// The model version's name, for messages.
    public var modelVersion: String
    /// The peer that rekeyed, and when (seconds since 1970).
    public var by: String
    public var at: Double
    /// The baseline of the new namespace: its file name and the SHA-256 of the file.
    public var baseline: String
    public var baselineSHA256: String

    /// The current redirect format.
    public static let currentFormat = 1

    /// Creates a redirect.
    public init(from: String, to: String, modelHash: String, modelVersion: String, by: String, at: Date, baseline: String, baselineSHA256: String) {
        format = Self.currentFormat
        self.from = from
        self.to = to
        self.modelHash = modelHash
        self.modelVersion = modelVersion
        self.by = by
        self.at = at.timeIntervalSince1970
        self.baseline = baseline
        self.baselineSHA256 = baselineSHA256
    }
}
