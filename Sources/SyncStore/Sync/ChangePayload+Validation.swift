import ObjectModel

extension ChangePayload {
    /// Checks that a payload of a log (no blob references) is well formed for `schema`'s entity,
    /// exactly as ``decode(_:schema:blob:)`` would read it, without building its values: every
    /// property number exists, every tag fits its property's kind, every length stays inside the
    /// payload, every text is UTF-8, and nothing follows the last property.
    ///
    /// The import keeps payloads encoded and decodes them only as it applies them; this check runs
    /// when a log is read, so that a malformed change stops the log before any of it is applied.
    ///
    /// - Throws: ``WireError`` with the offset inside the payload.
    static func validate(_ bytes: UnsafeRawBufferPointer, schema: SyncEntitySchema) throws(WireError) {
        var reader = WireReader(bytes)
        _ = try reader.byte()
        let count = try reader.count(limit: schema.properties.count)
        for _ in 0..<count {
            let (property, tag, tagOffset) = try readPropertyHeader(from: &reader, schema: schema)
            let tagByte = tag.rawValue
            switch property.storage {
            case .attribute:
                try skipValue(tag: tag, at: tagOffset, in: &reader)
            case .toOne:
                switch tag {
                case .null: break
                case .reference: try reader.skipText()
                case .orderedReference:
                    try reader.skipText()
                    _ = try reader.signed()
                default: throw WireError(offset: tagOffset, problem: "\(schema.entity).\(property.name) is a to-one relationship; tag \(tagByte) is not a reference")
                }
            case .toMany:
                guard tag == .membership else {
                    throw WireError(offset: tagOffset, problem: "\(schema.entity).\(property.name) is a to-many relationship; tag \(tagByte) is not a membership list")
                }
                for _ in 0..<(try reader.count(limit: reader.remaining)) {
                    let op = try reader.byte()
                    try reader.skipText()
                    if op & opHasOrder != 0 { _ = try reader.signed() }
                    if op & opHasInverseOrder != 0 { _ = try reader.signed() }
                }
            }
        }
        guard reader.isAtEnd else { throw WireError(offset: reader.offset, problem: "\(reader.remaining) bytes after the last property") }
    }

    /// Steps over an attribute value whose tag has been read, checking it as ``readValue(tag:at:from:)`` does.
    private static func skipValue(tag: Tag, at offset: Int, in reader: inout WireReader) throws(WireError) {
        switch tag {
        case .null, .boolFalse, .boolTrue: return
        case .integer: _ = try reader.signed()
        case .double, .date: _ = try reader.double()
        case .string, .decimal, .uri: try reader.skipText()
        case .uuid: _ = try reader.raw(16)
        case .binary: _ = try reader.slice()
        case .reference, .orderedReference, .membership:
            throw WireError(offset: offset, problem: "tag \(tag.rawValue) is not an attribute value")
        case .blobReference:
            throw WireError(offset: offset, problem: "a log names a blob file instead of holding its bytes")
        }
    }
}
