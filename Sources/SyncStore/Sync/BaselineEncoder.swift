import Foundation

/// Writes a baseline body (`docs/container.md`, "Baselines"): a snapshot of a store's content with
/// the clock of every value, so that a peer can start from it instead of replaying every log.
///
/// ```
/// body       := record* membership* tombstone*
/// record     := 'R' entity:name globalID:text seed updated insertClock overrides:varint (property:varint clock)* payload:bytes
/// seed       := 0 | 1 set:name version:varint
/// updated    := 0 | 1 seconds:double
/// membership := 'M' table:name owner:text target:text present:byte ownerOrder targetOrder clock
/// ownerOrder, targetOrder := 0 | 1 signed
/// tombstone  := 'X' entity:name globalID:text clock:varint peer:name identity:bytes
/// clock      := rank:byte reading:varint peer:name
/// ```
public final class BaselineEncoder {
    /// The body written so far.
    @exclusivity(unchecked) public private(set) var writer = WireWriter(capacity: 1 << 20)
    @exclusivity(unchecked) private var names: [String: Int] = [:]
    /// What the body holds.
    @exclusivity(unchecked) public private(set) var records = 0
    @exclusivity(unchecked) public private(set) var memberships = 0
    @exclusivity(unchecked) public private(set) var tombstones = 0

    /// Where the body goes in parts, when it is not kept whole.
    private let sink: (([UInt8]) throws -> Void)?
    private let partBytes: Int

    /// An empty body, kept whole in ``bytes``.
    public init() {
        sink = nil
        partBytes = .max
    }

    /// An empty body handed on in parts of about `partBytes` bytes, each ending after a whole item,
    /// so that a body of any size is encoded with the memory of one part. A part refers to names
    /// defined in the parts before it: the parts are read in order, as one body.
    ///
    /// ```swift
    /// let encoder = BaselineEncoder(handingOnEvery: 8 << 20) { part in try apply(part) }
    /// _ = try store.exportBaseline(into: encoder)   // ends with the last part handed on
    /// ```
    public init(handingOnEvery partBytes: Int, to sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        self.partBytes = max(partBytes, 1)
    }

    /// The body's bytes (what is not handed on yet, when handed on in parts).
    public var bytes: [UInt8] { writer.bytes }

    /// Hands the body written so far on once it holds at least the size of a part: called at the
    /// end of each item, so that a part always ends after a whole one.
    private func itemEnded() throws {
        if writer.count >= partBytes { try handOn() }
    }

    /// Hands on what is left (nothing for a body kept whole).
    func finish() throws {
        if writer.count > 0 { try handOn() }
    }

    private func handOn() throws {
        guard let sink else { return }
        try sink(writer.bytes)
        writer.removeAll()
    }

    func record(entity: String, globalID: String, seed: SeedMark?, updated: Double?, insertClock: PropertyClock,
                overrides: [(Int, PropertyClock)], payload: [UInt8]) throws {
        writer.byte(UInt8(ascii: "R"))
        name(entity)
        writer.text(globalID)
        if let seed {
            writer.byte(1)
            name(seed.set)
            writer.varint(UInt64(max(seed.version, 0)))
        } else {
            writer.byte(0)
        }
        if let updated {
            writer.byte(1)
            writer.double(updated)
        } else {
            writer.byte(0)
        }
        clock(insertClock)
        writer.count(overrides.count)
        for (position, override) in overrides {
            writer.count(position)
            clock(override)
        }
        writer.data(payload)
        records += 1
        try itemEnded()
    }

    func membership(table: String, owner: String, target: String, present: Bool, ownerOrder: Int64?, targetOrder: Int64?, clock membershipClock: PropertyClock) throws {
        writer.byte(UInt8(ascii: "M"))
        name(table)
        writer.text(owner)
        writer.text(target)
        writer.byte(present ? 1 : 0)
        for order in [ownerOrder, targetOrder] {
            if let order {
                writer.byte(1)
                writer.signed(order)
            } else {
                writer.byte(0)
            }
        }
        clock(membershipClock)
        memberships += 1
        try itemEnded()
    }

    func tombstone(entity: String, globalID: String, clock reading: HybridTimestamp, peer: String, identity: [UInt8]) throws {
        writer.byte(UInt8(ascii: "X"))
        name(entity)
        writer.text(globalID)
        writer.varint(UInt64(max(reading.rawValue, 0)))
        name(peer)
        writer.data(identity)
        tombstones += 1
        try itemEnded()
    }

    private func clock(_ value: PropertyClock) {
        writer.byte(UInt8(value.rank.rawValue))
        writer.varint(UInt64(max(value.timestamp.rawValue, 0)))
        name(value.peer)
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
}
