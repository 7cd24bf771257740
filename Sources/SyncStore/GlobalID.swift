import Foundation

/// The identity of a record across every peer (never the SQLite row id).
///
/// New records get a random UUID; callers may give their own (a seed record's ID is derived from
/// its identifying attributes, so that peers seeding offline agree).
///
/// ```swift
/// let id = GlobalID.random()
/// let fixed = GlobalID("6F9619FF-8B86-D011-B42D-00CF4FC964FF")
/// ```
public struct GlobalID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an existing identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A new random identifier (an uppercase UUID).
    public static func random() -> GlobalID { GlobalID(UUID().uuidString) }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Orders identifiers by their text (used to break ties deterministically).
    public static func < (lhs: GlobalID, rhs: GlobalID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes from a plain string.
    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a plain string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
