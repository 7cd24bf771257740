import Foundation

/// Writes transactions in the body encoding of a transaction log (`docs/container.md`, "Log body").
///
/// ```
/// body        := transaction*
/// transaction := 'T' sequence:varint clock:varint date:double author:name
///                dependencies:varint (peer:name sequence:varint)* changes:varint change*
/// change      := kind:byte entity:name globalID:text [seed] payload:bytes
/// seed        := (insert only) 0 | 1 set:name version:varint
/// name        := 0 text          (a new name, appended to the log's name table)
///              | n:varint        (the n-th name of the table, from 1)
/// ```
///
/// The store writes changes' payloads as they are kept (``SyncStore/exportTransactions(after:through:into:maxChanges:)``);
/// ``TransactionLogDecoder`` reads them back.
public final class TransactionLogEncoder {
    /// The body written so far.
    @exclusivity(unchecked) public private(set) var writer = WireWriter(capacity: 1 << 20)
    @exclusivity(unchecked) private var names: [String: Int] = [:]
    /// The number of transactions written.
    @exclusivity(unchecked) public private(set) var transactionCount = 0
    /// The number of changes written.
    @exclusivity(unchecked) public private(set) var changeCount = 0
    /// The first and last sequence numbers written.
    @exclusivity(unchecked) public private(set) var firstSequence: Int64?
    @exclusivity(unchecked) public private(set) var lastSequence: Int64?
    /// The largest clock reading written.
    @exclusivity(unchecked) public private(set) var latestClock = HybridTimestamp.zero

    /// An empty body.
    public init() {}

    /// The body's bytes.
    public var bytes: [UInt8] { writer.bytes }

    /// Starts a transaction of `changes` changes; write them next with ``appendChange(kind:entity:globalID:seed:payload:)``.
    public func beginTransaction(sequence: Int64, clock: HybridTimestamp, date: Date, author: String,
                                 dependencies: [String: Int64], changes: Int) {
        writer.byte(UInt8(ascii: "T"))
        writer.varint(UInt64(max(sequence, 0)))
        writer.varint(UInt64(max(clock.rawValue, 0)))
        writer.double(date.timeIntervalSince1970)
        name(author)
        writer.count(dependencies.count)
        for (peer, last) in dependencies.sorted(by: { $0.key < $1.key }) {
            name(peer)
            writer.varint(UInt64(max(last, 0)))
        }
        writer.count(changes)
        transactionCount += 1
        if firstSequence == nil { firstSequence = sequence }
        lastSequence = sequence
        latestClock = max(latestClock, clock)
    }

    /// Writes one change of the transaction begun last.
    public func appendChange(kind: ChangeKind, entity: String, globalID: GlobalID, seed: SeedMark?, payload: UnsafeRawBufferPointer) {
        writer.byte(Self.kindByte(kind))
        name(entity)
        writer.text(globalID.rawValue)
        if kind == .insert {
            if let seed {
                writer.byte(1)
                name(seed.set)
                writer.varint(UInt64(max(seed.version, 0)))
            } else {
                writer.byte(0)
            }
        }
        writer.count(payload.count)
        writer.raw(payload)
        changeCount += 1
    }

    /// Writes one change of the transaction begun last.
    public func appendChange(kind: ChangeKind, entity: String, globalID: GlobalID, seed: SeedMark?, payload: [UInt8]) {
        payload.withUnsafeBytes { appendChange(kind: kind, entity: entity, globalID: globalID, seed: seed, payload: $0) }
    }

    private func name(_ text: String) {
        if let index = names[text] {
            writer.count(index)
        } else {
            writer.byte(0)
            writer.text(text)
            names[text] = names.count + 1
        }
    }

    static func kindByte(_ kind: ChangeKind) -> UInt8 {
        switch kind {
        case .insert: return 0
        case .update: return 1
        case .delete: return 2
        }
    }
}
