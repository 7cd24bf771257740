import Foundation
import ObjectModel

/// Builds, value by value, the canonical line (`docs/format.md#the-content-digest`) a record will
/// have once a SQL copy (``BulkLoad/importCopiedBatch(_:checkpoint:)``) has
/// stored it, and adds its digest to a ``RecordDigestSum``: the source side of a copy's
/// verification, computed from the source's columns while the store's side is read back from the
/// store (``SyncStore/contentDigestAndRecordSums()``).
///
/// A record is given as ``beginRecord(globalIDPrefix:number:)``, then one value per attribute of
/// the entity's ``BulkCopyLayout`` in its order, then one target per to-one relationship in its
/// order, then ``finishRecord(into:)``. Each value is the one the store will hold (a date as
/// seconds since 1970, a Boolean as true or false, …); text must be valid UTF-8 without U+0000
/// (``isCleanText(_:)``), which a copy stores unchanged.
///
/// ```swift
/// let digester = try #require(BulkCopyDigester(store: store, entity: "Item"))
/// var sum = RecordDigestSum()
/// digester.beginRecord(globalIDPrefix: prefix, number: 1)
/// digester.append(integer: 3)        // Item.priority
/// digester.appendNoTarget()          // Item.project
/// digester.finishRecord(into: &sum)
/// ```
public final class BulkCopyDigester {
    private let line = RecordLineBuffer()
    @exclusivity(unchecked) private var attribute = 0
    @exclusivity(unchecked) private var toOne = 0
    /// The labels (` name=` of each attribute, then ` name->` of each to-one) back to back, with
    /// where each starts and the text marker of each attribute (`s`, `r` or `n`): memory of the
    /// digester's own, read for every value without retaining arrays.
    private let labels: UnsafeMutableBufferPointer<UInt8>
    private let labelStarts: UnsafeMutableBufferPointer<Int>
    private let textMarkers: UnsafeMutableBufferPointer<UInt8>
    private let attributeCount: Int

    /// A digester for `entity`'s copies into `store`, or `nil` when its records cannot be copied
    /// (``BulkCopyLayout/init(of:in:)``).
    public init?(store: SyncStore, entity: String) {
        guard BulkCopyLayout(of: entity, in: store) != nil, let plan = store.plans[entity] else { return nil }
        let encoder = plan.lineEncoder
        let all = encoder.attributeLabels + encoder.toOneLabels
        attributeCount = encoder.attributeLabels.count
        labels = .allocate(capacity: max(1, all.reduce(0) { $0 + $1.count }))
        labelStarts = .allocate(capacity: all.count + 1)
        var offset = 0
        for (index, label) in all.enumerated() {
            labelStarts[index] = offset
            for byte in label { labels[offset] = byte; offset += 1 }
        }
        labelStarts[all.count] = offset
        textMarkers = .allocate(capacity: max(1, attributeCount))
        for (index, facts) in encoder.attributeFacts.enumerated() {
            switch facts.type {
            case .uri: textMarkers[index] = UInt8(ascii: "r")
            case .decimal: textMarkers[index] = UInt8(ascii: "n")
            default: textMarkers[index] = UInt8(ascii: "s")
            }
        }
    }

    deinit {
        labels.deallocate()
        labelStarts.deallocate()
        textMarkers.deallocate()
    }

    /// Starts the line of the record whose global ID is `globalIDPrefix` followed by `number` in
    /// decimal, without a seed mark.
    public func beginRecord(globalIDPrefix: [UInt8], number: Int64) {
        line.clear()
        attribute = 0
        toOne = 0
        line.append(literal: "R ")
        appendField(prefix: globalIDPrefix, number: number)
        line.append(literal: " 1:- -")
    }

    /// The next attribute is empty.
    public func appendNull() {
        nextAttribute()
        line.append(byte: UInt8(ascii: "~"))
    }

    /// The next attribute (an integer one) holds `integer`.
    public func append(integer: Int64) {
        nextAttribute()
        line.append(byte: UInt8(ascii: "i"))
        line.append(decimal: integer)
    }

    /// The next attribute (a Boolean) holds `flag`.
    public func append(boolean flag: Bool) {
        nextAttribute()
        line.append(literal: flag ? "b1" : "b0")
    }

    /// The next attribute (a double or float) holds `double`.
    public func append(double: Double) {
        nextAttribute()
        line.append(byte: UInt8(ascii: "d"))
        line.append(hex: double.bitPattern)
    }

    /// The next attribute (a date) holds the date `seconds` after 1970-01-01 UTC.
    public func append(dateSince1970 seconds: Double) {
        nextAttribute()
        line.append(byte: UInt8(ascii: "t"))
        line.append(hex: RecordLineEncoder.dateBits(seconds))
    }

    /// The next attribute (a string, URI or decimal) holds `text` (clean UTF-8, ``isCleanText(_:)``).
    public func append(text: UnsafeBufferPointer<UInt8>) {
        let marker = textMarkers[attribute]
        nextAttribute()
        line.append(byte: marker)
        line.appendField(utf8: text)
    }

    /// The next attribute (a UUID) holds the UUID of these 16 bytes.
    public func append(uuid bytes: UnsafeRawBufferPointer) {
        nextAttribute()
        let value = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        line.append(byte: UInt8(ascii: "u"))
        line.append(text: value.uuidString)
    }

    /// The next attribute (binary) holds `bytes`.
    public func append(bytes: UnsafeRawBufferPointer) {
        nextAttribute()
        var hasher = SHA256()
        hasher.update(bytes: bytes)
        line.append(byte: UInt8(ascii: "x"))
        line.append(text: hasher.finalizeHex())
    }

    /// The next to-one relationship points at the record whose global ID is `globalIDPrefix` followed by `number`.
    public func appendTarget(globalIDPrefix: [UInt8], number: Int64) {
        nextToOne()
        appendField(prefix: globalIDPrefix, number: number)
    }

    /// The next to-one relationship is empty.
    public func appendNoTarget() {
        nextToOne()
        line.append(byte: UInt8(ascii: "-"))
    }

    /// Ends the record and adds the digest of its line to `sum`.
    public func finishRecord(into sum: inout RecordDigestSum) {
        sum.add(line: line)
    }

    /// The line so far, as text (for tests).
    var text: String { String(decoding: line.bytes, as: UTF8.self) }

    /// Whether `text` is valid UTF-8 without U+0000: the bytes a Swift `String` keeps unchanged
    /// and the store keeps as TEXT.
    public static func isCleanText(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in text {
            if byte == 0 { return false }
            if byte >= 0x80 { ascii = false }
        }
        return ascii || String(validating: text, as: UTF8.self) != nil
    }

    /// Writes the next attribute's label.
    @inline(__always)
    private func nextAttribute() {
        appendLabel(attribute)
        attribute += 1
    }

    @inline(__always)
    private func nextToOne() {
        appendLabel(attributeCount + toOne)
        toOne += 1
    }

    @inline(__always)
    private func appendLabel(_ index: Int) {
        let start = labelStarts[index]
        line.append(utf8: UnsafeBufferPointer(rebasing: labels[start..<labelStarts[index + 1]]))
    }

    /// `<length>:<prefix><number>`.
    private func appendField(prefix: [UInt8], number: Int64) {
        var digits = 1
        var rest = number.magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        line.append(decimal: Int64(prefix.count + digits + (number < 0 ? 1 : 0)))
        line.append(byte: UInt8(ascii: ":"))
        line.append(bytes: prefix)
        line.append(decimal: number)
    }
}
