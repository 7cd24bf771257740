import Foundation
import ObjectModel

/// The encoding of the properties one change sets (`docs/container.md`, "Change payloads"): kept in
/// `sk_change.payload` for every local change, and copied into transaction logs.
///
/// ```
/// payload    := flags:byte count:varint (number:varint value)*
/// value      := tag:byte data          (tags below)
/// membership := count:varint (op:byte member:text [order:signed] [inverseOrder:signed])*
/// ```
///
/// `number` is the property's position in the entity's carried properties (``SyncEntitySchema``).
/// A payload kept in a store may name a blob file (tag 14) instead of holding the bytes; flag bit 0
/// says so, and such a payload is rewritten with the bytes before it leaves the store.
enum ChangePayload {
    /// Flag bit: the payload names blob files (tag ``Tag/blobReference``).
    static let hasBlobReferences: UInt8 = 1

    /// Value tags.
    enum Tag: UInt8 {
        case null = 0, integer = 1, double = 2, string = 3, boolFalse = 4, boolTrue = 5, date = 6, decimal = 7
        case uuid = 8, uri = 9, binary = 10, reference = 11, orderedReference = 12, membership = 13, blobReference = 14
    }

    /// Membership op bits.
    static let opAdded: UInt8 = 1, opHasOrder: UInt8 = 2, opHasInverseOrder: UInt8 = 4

    /// Writes an attribute value.
    static func write(_ value: AttributeValue, to writer: inout WireWriter) {
        switch value {
        case .null: writer.byte(Tag.null.rawValue)
        case .integer(let number): writer.byte(Tag.integer.rawValue); writer.signed(number)
        case .double(let number): writer.byte(Tag.double.rawValue); writer.double(number)
        case .string(let text): writer.byte(Tag.string.rawValue); writer.text(text)
        case .boolean(let flag): writer.byte(flag ? Tag.boolTrue.rawValue : Tag.boolFalse.rawValue)
        case .date(let date): writer.byte(Tag.date.rawValue); writer.double(date.timeIntervalSince1970)
        case .decimal(let text): writer.byte(Tag.decimal.rawValue); writer.text(text)
        case .uuid(let uuid):
            writer.byte(Tag.uuid.rawValue)
            withUnsafeBytes(of: uuid.uuid) { writer.raw($0) }
        case .uri(let text): writer.byte(Tag.uri.rawValue); writer.text(text)
        case .binary(let data): writer.byte(Tag.binary.rawValue); writer.data(data)
        }
    }

    /// Writes a to-one value.
    static func writeReference(_ target: GlobalID?, order: Int64?, to writer: inout WireWriter) {
        guard let target else {
            writer.byte(Tag.null.rawValue)
            return
        }
        if let order {
            writer.byte(Tag.orderedReference.rawValue)
            writer.text(target.rawValue)
            writer.signed(order)
        } else {
            writer.byte(Tag.reference.rawValue)
            writer.text(target.rawValue)
        }
    }

    /// Writes membership changes.
    static func write(_ memberships: [MembershipChange], to writer: inout WireWriter) {
        writer.byte(Tag.membership.rawValue)
        writer.count(memberships.count)
        for change in memberships {
            var op: UInt8 = change.added ? opAdded : 0
            if change.order != nil { op |= opHasOrder }
            if change.inverseOrder != nil { op |= opHasInverseOrder }
            writer.byte(op)
            writer.text(change.member.rawValue)
            if let order = change.order { writer.signed(order) }
            if let inverse = change.inverseOrder { writer.signed(inverse) }
        }
    }

    /// Writes a blob file reference (store form only): the 32 bytes of its SHA-256.
    static func writeBlobReference(hex: String, to writer: inout WireWriter) -> Bool {
        guard let digest = Self.bytes(ofHex: hex), digest.count == 32 else { return false }
        writer.byte(Tag.blobReference.rawValue)
        writer.raw(digest)
        return true
    }

    /// Encodes `properties` of a change of `schema`'s entity (log form: bytes inline).
    static func encode(_ properties: [SyncPropertyChange], schema: SyncEntitySchema) throws(WireError) -> [UInt8] {
        var writer = WireWriter()
        writer.byte(0)
        writer.count(properties.count)
        for property in properties {
            guard let position = schema.position(of: property.name) else {
                throw WireError(offset: 0, problem: "entity \(schema.entity) has no carried property named '\(property.name)'")
            }
            writer.count(position)
            switch property {
            case .attribute(_, let value): write(value, to: &writer)
            case .toOne(_, let target, let order): writeReference(target, order: order, to: &writer)
            case .toMany(_, let memberships): write(memberships, to: &writer)
            }
        }
        return writer.bytes
    }

    /// Decodes a payload of `schema`'s entity; a blob reference (store form) is resolved with `blob`.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, schema: SyncEntitySchema, blob: (String) throws -> Data
    ) throws -> [SyncPropertyChange] {
        var reader = WireReader(bytes)
        _ = try reader.byte()
        let count = try reader.count(limit: schema.properties.count)
        var result: [SyncPropertyChange] = []
        result.reserveCapacity(count)
        for _ in 0..<count {
            let (property, tag, tagOffset) = try readPropertyHeader(from: &reader, schema: schema)
            let tagByte = tag.rawValue
            switch property.storage {
            case .attribute:
                let value: AttributeValue
                if tag == .blobReference {
                    let digest = try reader.raw(32)
                    value = .binary(try blob(digest.map { String(format: "%02x", $0) }.joined()))
                } else {
                    value = try readValue(tag: tag, at: tagOffset, from: &reader)
                }
                result.append(.attribute(property.name, value))
            case .toOne:
                switch tag {
                case .null: result.append(.toOne(property.name, target: nil, order: nil))
                case .reference: result.append(.toOne(property.name, target: GlobalID(try reader.text()), order: nil))
                case .orderedReference:
                    let target = GlobalID(try reader.text())
                    result.append(.toOne(property.name, target: target, order: try reader.signed()))
                default: throw WireError(offset: tagOffset, problem: "\(schema.entity).\(property.name) is a to-one relationship; tag \(tagByte) is not a reference")
                }
            case .toMany:
                guard tag == .membership else {
                    throw WireError(offset: tagOffset, problem: "\(schema.entity).\(property.name) is a to-many relationship; tag \(tagByte) is not a membership list")
                }
                let members = try reader.count(limit: reader.remaining)
                var changes: [MembershipChange] = []
                changes.reserveCapacity(members)
                for _ in 0..<members {
                    let op = try reader.byte()
                    let member = GlobalID(try reader.text())
                    let order = op & opHasOrder != 0 ? try reader.signed() : nil
                    let inverse = op & opHasInverseOrder != 0 ? try reader.signed() : nil
                    changes.append(MembershipChange(member: member, added: op & opAdded != 0, order: order, inverseOrder: inverse))
                }
                result.append(.toMany(property.name, changes))
            }
        }
        guard reader.isAtEnd else { throw WireError(offset: reader.offset, problem: "\(reader.remaining) bytes after the last property") }
        return result
    }

    /// Reads one property's number and value tag, checking both against `schema`.
    ///
    /// - Returns: the property, its tag, and the tag's offset.
    static func readPropertyHeader(from reader: inout WireReader, schema: SyncEntitySchema) throws(WireError)
        -> (SyncEntitySchema.Property, Tag, Int) {
        let start = reader.offset
        let position = try reader.count()
        guard let property = schema.property(at: position) else {
            throw WireError(offset: start, problem: "property number \(position) does not exist in entity \(schema.entity)")
        }
        let tagOffset = reader.offset
        let tagByte = try reader.byte()
        guard let tag = Tag(rawValue: tagByte) else { throw WireError(offset: tagOffset, problem: "unknown value tag \(tagByte)") }
        return (property, tag, tagOffset)
    }

    /// Reads an attribute value whose tag has been read.
    static func readValue(tag: Tag, at offset: Int, from reader: inout WireReader) throws(WireError) -> AttributeValue {
        switch tag {
        case .null: return .null
        case .integer: return .integer(try reader.signed())
        case .double: return .double(try reader.double())
        case .string: return .string(try reader.text())
        case .boolFalse: return .boolean(false)
        case .boolTrue: return .boolean(true)
        case .date: return .date(Date(timeIntervalSince1970: try reader.double()))
        case .decimal: return .decimal(try reader.text())
        case .uuid:
            let raw = try reader.raw(16)
            let uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                                   raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
            return .uuid(uuid)
        case .uri: return .uri(try reader.text())
        case .binary: return .binary(try reader.data())
        case .reference, .orderedReference, .membership, .blobReference:
            throw WireError(offset: offset, problem: "tag \(tag.rawValue) is not an attribute value")
        }
    }

    /// The bytes of a lowercase or uppercase hex string, or `nil`.
    static func bytes(ofHex hex: String) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                result.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? result : nil
    }
}
