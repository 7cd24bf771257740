import Foundation
import GRDB
import ObjectModel

/// Turns one stored column value into an ``ObjectModel/AttributeValue`` for an attribute's type.
///
/// Dates are seconds since 2001-01-01 00:00 UTC, stored as integers or reals, possibly negative.
/// Booleans are integers. UUIDs are 16-byte BLOBs. For attributes that allow external storage,
/// a BLOB starting with `0x01` holds the bytes inline after that marker, and one starting with
/// `0x02` holds the name of a file in `.<store>_SUPPORT/_EXTERNAL_DATA/` (up to a NUL or the end);
/// other BLOBs are returned as stored. A value whose storage class does not fit the type is
/// returned as what it is (an integer, a double, a string or bytes) rather than dropped.
struct StoredValueDecoder: Sendable {
    /// The `_EXTERNAL_DATA` folders to look in, in order.
    let externalFolders: [URL]

    /// The folders next to `storePath` where Core Data keeps external values.
    static func externalFolders(for storePath: String) -> [URL] {
        let url = URL(fileURLWithPath: storePath)
        let folder = url.deletingLastPathComponent()
        let names = [url.deletingPathExtension().lastPathComponent, url.lastPathComponent]
        return names.map { folder.appendingPathComponent(".\($0)_SUPPORT/_EXTERNAL_DATA", isDirectory: true) }
    }

    /// Decodes `value` for `type`; throws a problem sentence when an external file is missing.
    func decode(_ value: DatabaseValue, type: AttributeType, allowsExternalStorage: Bool) throws(ExternalFileMissing) -> AttributeValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return decode(integer: integer, type: type)
        case .double(let real): return decode(real: real, type: type)
        case .string(let text): return decode(text: text, type: type)
        case .blob(let data): return try decode(blob: data, type: type, allowsExternalStorage: allowsExternalStorage)
        }
    }

    /// An INTEGER column's value for `type`.
    func decode(integer: Int64, type: AttributeType) -> AttributeValue {
        switch type {
        case .boolean: return .boolean(integer != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: TimeInterval(integer)))
        case .double, .float: return .double(Double(integer))
        case .decimal: return .decimal(String(integer))
        default: return .integer(integer)
        }
    }

    /// A REAL column's value for `type`.
    func decode(real: Double, type: AttributeType) -> AttributeValue {
        switch type {
        case .date: return .date(Date(timeIntervalSinceReferenceDate: real))
        case .boolean: return .boolean(real != 0)
        case .decimal: return .decimal(Self.decimalText(real))
        case .integer16, .integer32, .integer64:
            if real.rounded() == real, let integer = Int64(exactly: real) { return .integer(integer) }
            return .double(real)
        default: return .double(real)
        }
    }

    /// A TEXT column's value for `type`.
    func decode(text: String, type: AttributeType) -> AttributeValue {
        switch type {
        case .uri: return .uri(text)
        case .uuid: return UUID(uuidString: text).map(AttributeValue.uuid) ?? .string(text)
        case .decimal: return .decimal(text)
        case .binary, .transformable: return .binary(Data(text.utf8))
        default: return .string(text)
        }
    }

    /// A BLOB column's value for `type` (external-storage references followed when allowed).
    func decode(blob data: Data, type: AttributeType, allowsExternalStorage: Bool) throws(ExternalFileMissing) -> AttributeValue {
        switch type {
        case .uuid where data.count == 16:
            let bytes = [UInt8](data)
            return .uuid(UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case .string:
            return String(data: data, encoding: .utf8).map(AttributeValue.string) ?? .binary(data)
        case .binary where allowsExternalStorage, .transformable where allowsExternalStorage:
            return .binary(try external(data))
        default:
            return .binary(data)
        }
    }

    /// A file an external-storage value names that is not there.
    struct ExternalFileMissing: Error {
        /// The file name the value refers to.
        var reference: String
    }

    private func external(_ data: Data) throws(ExternalFileMissing) -> Data {
        guard let marker = data.first else { return data }
        switch marker {
        case 0x01:
            return data.dropFirst()
        case 0x02:
            let nameBytes = data.dropFirst().prefix { $0 != 0 }
            let reference = String(decoding: nameBytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !reference.isEmpty, !reference.contains("/") else { return data }
            for folder in externalFolders {
                if let contents = FileManager.default.contents(atPath: folder.appendingPathComponent(reference).path) {
                    return contents
                }
            }
            throw ExternalFileMissing(reference: reference)
        default:
            return data
        }
    }

    private static func decimalText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
