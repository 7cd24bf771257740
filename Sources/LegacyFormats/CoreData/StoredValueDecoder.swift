import Foundation
import GRDB
import ObjectModel

/// Turns one stored column value into an ``ObjectModel/AttributeValue`` for an attribute's type,
/// exactly, or says why it cannot.
///
/// Dates are seconds since 2001-01-01 00:00 UTC, stored as integers or reals, possibly negative.
/// Booleans are the integers 0 and 1. UUIDs are 16-byte BLOBs. For attributes that allow external
/// storage, a BLOB starting with `0x01` holds the bytes inline after that marker, and one starting
/// with `0x02` holds the name of a file in `.<store>_SUPPORT/_EXTERNAL_DATA/` (up to a NUL or the
/// end); other BLOBs are returned as stored.
///
/// A value that would not arrive unchanged — a storage class Core Data does not write for the type
/// (text in an integer column), a number the type cannot hold (70000 in an Integer 16, 1.5 in an
/// integer, 2 in a Boolean, an integer no Double holds exactly, an infinite date), text that is not
/// UTF-8, a decimal that is not one — is a ``Failure/uncarried(_:)`` naming the value: its record is
/// rejected, never migrated with the value rounded, replaced or dropped.
struct StoredValueDecoder: Sendable {
    /// Why a value cannot be read.
    enum Failure: Error {
        /// The value names a file in `_EXTERNAL_DATA` that is not there.
        case externalFileMissing(reference: String)
        /// The value cannot be carried exactly as the attribute's type; the phrase names it.
        case uncarried(String)
    }

    /// The `_EXTERNAL_DATA` folders to look in, in order.
    let externalFolders: [URL]

    /// The folders next to `storePath` where Core Data keeps external values.
    static func externalFolders(for storePath: String) -> [URL] {
        let url = URL(fileURLWithPath: storePath)
        let folder = url.deletingLastPathComponent()
        let names = [url.deletingPathExtension().lastPathComponent, url.lastPathComponent]
        return names.map { folder.appendingPathComponent(".\($0)_SUPPORT/_EXTERNAL_DATA", isDirectory: true) }
    }

    /// Decodes `value` for `type`.
    func decode(_ value: DatabaseValue, type: AttributeType, allowsExternalStorage: Bool) throws(Failure) -> AttributeValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return try decode(integer: integer, type: type)
        case .double(let real): return try decode(real: real, type: type)
        case .string(let text): return try decode(text: Array(text.utf8), type: type)
        case .blob(let data): return try decode(blob: data, type: type, allowsExternalStorage: allowsExternalStorage)
        }
    }

    /// An INTEGER column's value for `type`.
    func decode(integer: Int64, type: AttributeType) throws(Failure) -> AttributeValue {
        let value: AttributeValue
        switch type {
        case .boolean:
            guard integer == 0 || integer == 1 else { throw .uncarried("\(integer) (a Boolean is stored as 0 or 1)") }
            value = .boolean(integer == 1)
        case .date:
            guard let seconds = ValueFit.exactDouble(integer) else { throw .uncarried("the integer \(integer), which no Double date holds exactly") }
            value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .double, .float:
            guard let number = ValueFit.exactDouble(integer) else { throw .uncarried("the integer \(integer), which no Double holds exactly") }
            value = .double(number)
        case .decimal:
            value = .decimal(String(integer))
        case .integer16, .integer32, .integer64:
            value = .integer(integer)
        default:
            throw Self.wrongStorage("the integer \(integer)", type: type)
        }
        return try Self.fitting(value, type: type)
    }

    /// A REAL column's value for `type`.
    func decode(real: Double, type: AttributeType) throws(Failure) -> AttributeValue {
        let value: AttributeValue
        switch type {
        case .date:
            value = .date(Date(timeIntervalSinceReferenceDate: real))
        case .boolean:
            guard real == 0 || real == 1 else { throw .uncarried("\(real) (a Boolean is stored as 0 or 1)") }
            value = .boolean(real == 1)
        case .decimal:
            guard real.isFinite else { throw .uncarried("\(real), which is no decimal number") }
            value = .decimal(Self.decimalText(real))
        case .integer16, .integer32, .integer64:
            guard let integer = Int64(exactly: real) else { throw .uncarried("\(real), which is not a whole number an integer holds") }
            value = .integer(integer)
        case .double, .float:
            value = .double(real)
        default:
            throw Self.wrongStorage("the real \(real)", type: type)
        }
        return try Self.fitting(value, type: type)
    }

    /// A TEXT column's value (its bytes as stored) for `type`.
    func decode(text bytes: some Collection<UInt8>, type: AttributeType) throws(Failure) -> AttributeValue {
        if type.isBinary { return .binary(Data(bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .uncarried("text of \(bytes.count) bytes that is not valid UTF-8")
        }
        switch type {
        case .string, .objectID: return .string(text)
        case .uri: return .uri(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw .uncarried("'\(ValueFit.preview(text))', which is not a UUID") }
            return .uuid(uuid)
        case .decimal: return try Self.fitting(.decimal(text), type: type)
        default: throw Self.wrongStorage("the text '\(ValueFit.preview(text))'", type: type)
        }
    }

    /// A BLOB column's value for `type` (external-storage references followed when allowed).
    func decode(blob data: Data, type: AttributeType, allowsExternalStorage: Bool) throws(Failure) -> AttributeValue {
        switch type {
        case .uuid:
            guard data.count == 16 else { throw .uncarried("a blob of \(data.count) bytes, not the 16 bytes of a UUID") }
            let bytes = [UInt8](data)
            return .uuid(UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case .string:
            guard let text = String(validating: data, as: UTF8.self) else {
                throw .uncarried("a blob of \(data.count) bytes that is not valid UTF-8 text")
            }
            return .string(text)
        case .binary where allowsExternalStorage, .transformable where allowsExternalStorage:
            return .binary(try external(data))
        case .binary, .transformable:
            return .binary(data)
        default:
            throw Self.wrongStorage("a blob of \(data.count) bytes", type: type)
        }
    }

    /// `value` when `type` holds it exactly (``ValueFit``).
    private static func fitting(_ value: AttributeValue, type: AttributeType) throws(Failure) -> AttributeValue {
        if let problem = ValueFit.problem(value, as: type) { throw .uncarried(problem) }
        return value
    }

    private static func wrongStorage(_ what: String, type: AttributeType) -> Failure {
        .uncarried("\(what), which Core Data does not store for an attribute of type \(type.rawValue)")
    }

    private func external(_ data: Data) throws(Failure) -> Data {
        guard let marker = data.first else { return data }
        switch marker {
        case 0x01:
            return data.dropFirst()
        case 0x02:
            let nameBytes = data.dropFirst().prefix { $0 != 0 }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw .uncarried("an external-storage reference that is not valid UTF-8")
            }
            let reference = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !reference.isEmpty, !reference.contains("/"), reference != ".", reference != ".." else {
                throw .uncarried("an external-storage reference '\(ValueFit.preview(reference))' that is not a file name in _EXTERNAL_DATA")
            }
            for folder in externalFolders {
                if let contents = FileManager.default.contents(atPath: folder.appendingPathComponent(reference).path) {
                    return contents
                }
            }
            throw .externalFileMissing(reference: reference)
        default:
            return data
        }
    }

    private static func decimalText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
