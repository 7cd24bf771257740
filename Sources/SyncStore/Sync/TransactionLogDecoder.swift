import Foundation
import ObjectModel

/// Reads the transactions of a log body (``TransactionLogEncoder``) as ``SyncTransaction`` values,
/// decoding each change's payload with the model's carried properties.
///
/// Everything read is checked: a malformed body throws ``WireError`` with the offset, never traps.
///
/// ```swift
/// var decoder = TransactionLogDecoder(model: store.model, peer: "B")
/// try body.withUnsafeBytes { bytes in
///     try decoder.forEachTransaction(in: bytes) { transaction in print(transaction.sequence) }
/// }
/// ```
public struct TransactionLogDecoder {
    private let schemas: [String: SyncEntitySchema]
    private let peer: String
    private let decodingPayloads: Bool

    /// A decoder for logs of `peer` written with `model`.
    ///
    /// - Parameter decodingPayloads: decode each change's properties (the default); with `false`,
    ///   each change keeps its encoded payload (``SyncChange/encodedPayload``), which the import
    ///   binds straight into the store: the faster way to import. The payload is still checked
    ///   whole (``WireError`` for a malformed one), only its values are not built.
    public init(model: ManagedModel, peer: String, decodingPayloads: Bool = true) {
        let layout = StoreLayout(model: model)
        schemas = Dictionary(uniqueKeysWithValues: model.entities.compactMap { entity in
            SyncEntitySchema(entity: entity.name, layout: layout, model: model).map { (entity.name, $0) }
        })
        self.peer = peer
        self.decodingPayloads = decodingPayloads
    }

    /// A decoder for logs of `peer` written with `store`'s model, using the carried properties the
    /// store has worked out already (cheaper than ``init(model:peer:decodingPayloads:)`` once per peer).
    public init(store: SyncStore, peer: String, decodingPayloads: Bool = true) {
        schemas = store.syncSchemas
        self.peer = peer
        self.decodingPayloads = decodingPayloads
    }

    /// Calls `body` with each transaction of `bytes`, in order.
    public func forEachTransaction(in bytes: UnsafeRawBufferPointer, _ body: (SyncTransaction) throws -> Void) throws {
        var reader = WireReader(bytes)
        var names = NameTable()
        while !reader.isAtEnd {
            let start = reader.offset
            guard try reader.byte() == UInt8(ascii: "T") else { throw WireError(offset: start, problem: "a transaction does not start with 'T'") }
            let sequence = try reader.varint()
            let clock = try reader.varint()
            guard sequence <= UInt64(Int64.max), clock <= UInt64(Int64.max) else {
                throw WireError(offset: start, problem: "a sequence number or clock reading is out of range")
            }
            let date = Date(timeIntervalSince1970: try reader.double())
            let author = try names.read(from: &reader)
            var dependencies: [String: Int64] = [:]
            for _ in 0..<(try reader.count(limit: reader.remaining)) {
                let other = try names.read(from: &reader)
                let last = try reader.varint()
                guard last <= UInt64(Int64.max) else { throw WireError(offset: reader.offset, problem: "a dependency is out of range") }
                dependencies[other] = Int64(last)
            }
            let count = try reader.count(limit: reader.remaining)
            var changes: [SyncChange] = []
            changes.reserveCapacity(count)
            for _ in 0..<count {
                changes.append(try change(from: &reader, names: &names))
            }
            try body(SyncTransaction(peer: peer, sequence: Int64(sequence), clock: HybridTimestamp(rawValue: Int64(clock)), date: date,
                                     author: author, dependencies: dependencies, changes: changes))
        }
    }

    private func change(from reader: inout WireReader, names: inout NameTable) throws -> SyncChange {
        let start = reader.offset
        let kindByte = try reader.byte()
        let kind: ChangeKind
        switch kindByte {
        case 0: kind = .insert
        case 1: kind = .update
        case 2: kind = .delete
        default: throw WireError(offset: start, problem: "unknown change kind \(kindByte)")
        }
        let entity = try names.read(from: &reader)
        let globalID = GlobalID(try reader.text())
        var seed: SeedMark?
        if kind == .insert, try reader.byte() == 1 {
            let set = try names.read(from: &reader)
            let version = try reader.varint()
            guard version <= UInt64(Int.max) else { throw WireError(offset: reader.offset, problem: "a seed version is out of range") }
            seed = SeedMark(set: set, version: Int(version))
        }
        let payloadStart = reader.offset
        let payload = try reader.slice()
        guard let schema = schemas[entity] else {
            throw WireError(offset: start, problem: "entity '\(entity)' is not in the model")
        }
        if !decodingPayloads {
            // Checked whole now, so that a malformed change stops its log before any of it is applied.
            do {
                try ChangePayload.validate(payload, schema: schema)
            } catch {
                throw WireError(offset: payloadStart + error.offset, problem: error.problem)
            }
            var change = SyncChange(kind: kind, entity: entity, globalID: globalID, seed: seed)
            change.encodedPayload = Array(payload)
            return change
        }
        let properties: [SyncPropertyChange]
        do {
            properties = try ChangePayload.decode(payload, schema: schema) { _ in
                throw WireError(offset: payloadStart, problem: "a log names a blob file instead of holding its bytes")
            }
        } catch let error as WireError {
            throw WireError(offset: payloadStart + error.offset, problem: error.problem)
        }
        if kind == .delete {
            var tombstone: [String: AttributeValue] = [:]
            for case .attribute(let name, let value) in properties { tombstone[name] = value }
            return SyncChange(kind: kind, entity: entity, globalID: globalID, tombstone: tombstone)
        }
        return SyncChange(kind: kind, entity: entity, globalID: globalID, seed: seed, properties: properties)
    }
}

/// The names a log body defines as it goes (``TransactionLogEncoder``): a name is written in full the
/// first time, then by its number.
private struct NameTable {
    private var names: [String] = []

    mutating func read(from reader: inout WireReader) throws(WireError) -> String {
        let start = reader.offset
        let index = try reader.count()
        if index == 0 {
            let text = try reader.text()
            names.append(text)
            return text
        }
        guard index <= names.count else { throw WireError(offset: start, problem: "name number \(index) is not defined yet") }
        return names[index - 1]
    }
}
