import Foundation
import ObjectModel
import SyncStore

/// A value a step file's rule makes for each record (`generate:`), where no old value exists and a
/// constant would give every record the same one: a new required UUID, say.
///
/// The value depends on the record's global ID alone, which a migration keeps, so that a rerun, a
/// resumed run and the two-step path give the same values, and the same digest.
///
/// ```swift
/// ValueGenerator.uuidFromGlobalID.value(for: GlobalID("x-coredata://S/Person/p1"), as: .uuid)
/// // .uuid(…) — the same UUID on every run
/// ```
public enum ValueGenerator: String, Hashable, Sendable, CaseIterable {
    /// A name-based UUID of the record's global ID (RFC 9562 version 8, SHA-256): the first 16 bytes
    /// of SHA-256 over the URL namespace UUID `6ba7b811-9dad-11d1-80b4-00c04fd430c8`'s 16 bytes
    /// followed by the global ID's UTF-8, with the version nibble set to 8 and the variant bits to `10`.
    /// For a String attribute, its uppercase text.
    case uuidFromGlobalID = "uuid-from-global-id"

    /// The attribute types the generator makes values of.
    public var types: [AttributeType] {
        switch self {
        case .uuidFromGlobalID: return [.uuid, .string]
        }
    }

    /// The attribute type the generator is meant for (messages suggest it for a new required attribute of that type).
    public var madeFor: AttributeType {
        switch self {
        case .uuidFromGlobalID: return .uuid
        }
    }

    /// The value for the record whose global ID is `globalID`, for an attribute of `type` (one of ``types``).
    public func value(for globalID: GlobalID, as type: AttributeType) -> AttributeValue {
        switch self {
        case .uuidFromGlobalID:
            let uuid = Self.nameBasedUUID(globalID.rawValue)
            return type == .string ? .string(uuid.uuidString) : .uuid(uuid)
        }
    }

    /// RFC 4122's URL namespace, the namespace of ``uuidFromGlobalID`` (a global ID is a URI).
    static let urlNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    /// RFC 9562's name-based UUIDv8 with SHA-256 (its appendix B.2) of `name` in the URL namespace.
    static func nameBasedUUID(_ name: String) -> UUID {
        var hasher = SHA256()
        hasher.update(Data(urlNamespace))
        hasher.update(name)
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
