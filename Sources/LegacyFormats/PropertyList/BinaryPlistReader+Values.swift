import Foundation

/// The state of one walk over a binary plist: the containers being read (to catch reference
/// cycles) and how many more objects may be visited.
struct BinaryWalk {
    var ancestors: [UInt64] = []
    var remaining: Int
}

extension BinaryPlistReader {
    /// Starts a walk with the file's visit budget.
    func startWalk() -> BinaryWalk {
        BinaryWalk(remaining: visitBudget)
    }

    /// Object `reference`, fully materialised.
    func value(_ reference: UInt64, walk: inout BinaryWalk) throws(PropertyListError) -> PropertyListValue {
        let object = try enter(reference, walk: &walk)
        switch object.kind {
        case 0xD:
            try push(object, walk: &walk)
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(object.count)
            for index in 0..<object.count {
                let key = try keyString(self.reference(in: object.payload, at: index))
                entries[key] = try value(self.reference(in: object.payload, at: object.count + index), walk: &walk)
            }
            walk.ancestors.removeLast()
            return .dictionary(entries)
        case 0xA, 0xB, 0xC:
            try push(object, walk: &walk)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(object.count)
            for index in 0..<object.count {
                elements.append(try value(self.reference(in: object.payload, at: index), walk: &walk))
            }
            walk.ancestors.removeLast()
            return .array(elements)
        default:
            return try scalar(object)
        }
    }

    /// Walks object `reference` without materialising it: records it into `node` down to
    /// `shapeDepth` levels and, with `check`, reads every object below it.
    ///
    /// - Returns: whether the object is a single value (not a container).
    @discardableResult
    func walk(
        _ reference: UInt64, node: ShapeAccumulator?, shapeDepth: Int, check: Bool, walk: inout BinaryWalk
    ) throws(PropertyListError) -> Bool {
        let object = try enter(reference, walk: &walk)
        node?.record(object.typeName, count: object.isContainer ? object.count : nil)
        let deeper = shapeDepth > 0 ? node : nil
        guard object.isContainer else {
            // A string's or data's header already proved its bytes lie inside the file, and any
            // bytes of data or ASCII decode: numbers, dates, UIDs and UTF-16 strings (which may hold
            // an unpaired surrogate) are read.
            if check, object.kind != 0x4, object.kind != 0x5 { _ = try scalar(object) }
            return true
        }
        guard deeper != nil || check else { return false }
        try push(object, walk: &walk)
        for index in 0..<object.count {
            let childReference: UInt64
            var child: ShapeAccumulator?
            if object.kind == 0xD {
                let keyReference = try self.reference(in: object.payload, at: index)
                child = try deeper.map { (parent: ShapeAccumulator) throws(PropertyListError) in parent.child(try keyString(keyReference)) }
                if child == nil, check { _ = try keyString(keyReference) }
                childReference = try self.reference(in: object.payload, at: object.count + index)
            } else {
                child = deeper?.elementNode()
                childReference = try self.reference(in: object.payload, at: index)
            }
            // A checking walk reads a shared single value once; later visits only count.
            let shared = check && child == nil && Self.isShared(childReference, by: reference)
            if shared, checkedScalars.value(for: childReference) != nil {
                try spendVisit(&walk)
                continue
            }
            let isScalar = try self.walk(childReference, node: child, shapeDepth: shapeDepth - 1, check: check, walk: &walk)
            if shared, isScalar { checkedScalars.keep(true, for: childReference) }
        }
        walk.ancestors.removeLast()
        return false
    }

    /// Whether the object `child` lies far from its container `parent` in the file: written for an
    /// earlier element and shared, since a container's own values lie next to it, whichever order
    /// the writer used.
    @inline(__always)
    static func isShared(_ child: UInt64, by parent: UInt64) -> Bool {
        (child > parent ? child - parent : parent - child) > ownValueDistance
    }

    /// Counts a visit against the budget and reads the object's header.
    private func enter(_ reference: UInt64, walk: inout BinaryWalk) throws(PropertyListError) -> Object {
        try spendVisit(&walk)
        return try object(reference)
    }

    /// Counts a visit against the budget, one that reads nothing (a value found in a cache)
    /// included: a dictionary that repeats a key for one shared value, and that every element
    /// refers to, would otherwise cost elements × keys steps without ever reaching the limit.
    @inline(__always)
    func spendVisit(_ walk: inout BinaryWalk) throws(PropertyListError) {
        walk.remaining -= 1
        guard walk.remaining >= 0 else {
            throw .binary(path, offset: nil, "reading it visits more than \(visitBudget) objects: objects are shared in a way that multiplies them (a crafted or corrupt file)")
        }
    }

    /// Enters a container: refuses reference cycles and too deep nesting.
    func push(_ object: Object, walk: inout BinaryWalk) throws(PropertyListError) {
        if walk.ancestors.contains(object.reference) {
            throw .binary(path, offset: object.offset, "object #\(object.reference) contains itself (a reference cycle)")
        }
        guard walk.ancestors.count < Self.maxNesting else {
            throw .binary(path, offset: object.offset, "values nested more than \(Self.maxNesting) levels deep")
        }
        walk.ancestors.append(object.reference)
    }

    /// A non-container object's value.
    func scalar(_ object: Object) throws(PropertyListError) -> PropertyListValue {
        switch object.kind {
        case 0x0:
            return .boolean(object.marker == 0x09)
        case 0x1:
            return .integer(try integer(object))
        case 0x2:
            let raw = try pages.unsigned(at: object.payload, size: object.count)
            return .real(object.count == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
        case 0x3:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try pages.unsigned(at: object.payload, size: 8))))
        case 0x4:
            return .data(Data(try pages.bytes(at: object.payload, count: object.count)))
        case 0x5, 0x6:
            return .string(try string(object))
        case 0x8:
            return .uid(try pages.unsigned(at: object.payload, size: object.count))
        default:
            throw .binary(path, offset: object.offset, "object #\(object.reference) is a \(object.typeName), not a single value")
        }
    }

    /// The value of an integer object, exactly. Integers of 1, 2 and 4 bytes are unsigned, of 8
    /// bytes signed; one of 16 bytes (signed, as writers use for values above `Int64.max`) is
    /// refused unless it fits in an `Int64`: a value that cannot be carried exactly is never
    /// changed into another one.
    private func integer(_ object: Object) throws(PropertyListError) -> Int64 {
        guard object.count == 16 else {
            return Int64(bitPattern: try pages.unsigned(at: object.payload, size: object.count))
        }
        let high = try pages.unsigned(at: object.payload, size: 8)
        let low = try pages.unsigned(at: object.payload + 8, size: 8)
        // The 16 bytes hold an Int64 exactly when the high half only repeats the low half's sign.
        let signExtension: UInt64 = low >> 63 == 0 ? 0 : .max
        guard high == signExtension else {
            throw .outOfRange(path, offset: object.offset, "object #\(object.reference) is the integer \(Self.decimal(high: high, low: low))")
        }
        return Int64(bitPattern: low)
    }

    /// The decimal text of the signed 128-bit integer whose halves are `high` and `low`.
    static func decimal(high: UInt64, low: UInt64) -> String {
        let negative = high >> 63 == 1
        var (high, low) = (high, low)
        if negative {
            // Two's complement: the magnitude is the bits inverted, plus one.
            let (sum, carry) = (~low).addingReportingOverflow(1)
            (high, low) = (~high &+ (carry ? 1 : 0), sum)
        }
        var digits: [UInt8] = []
        repeat {
            let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: 10)
            let (quotientLow, digit) = (10 as UInt64).dividingFullWidth((remainderHigh, low))
            (high, low) = (quotientHigh, quotientLow)
            digits.append(UInt8(ascii: "0") + UInt8(digit))
        } while high != 0 || low != 0
        return (negative ? "-" : "") + String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// The text of an ASCII (0x5) or UTF-16 big-endian (0x6) string object.
    func string(_ object: Object) throws(PropertyListError) -> String {
        if object.kind == 0x5 {
            // ASCII (or, from lax writers, Latin-1) bytes: decoded straight from the cached page.
            return try pages.withBytes(at: object.payload, count: object.count) { bytes in
                let bytes = bytes.bindMemory(to: UInt8.self)
                if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
                return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
            }
        }
        let bytes = try pages.bytes(at: object.payload, count: object.count * 2)
        var units: [UInt16] = []
        units.reserveCapacity(object.count)
        for index in stride(from: 0, to: bytes.count, by: 2) {
            units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
        }
        // A surrogate without its pair is no character: decoding it would put U+FFFD in its place.
        guard let text = String(validating: units, as: UTF16.self) else {
            throw .binary(path, offset: object.offset, "object #\(object.reference) is a UTF-16 string with a surrogate that has no pair (no text can hold it)")
        }
        return text
    }
}

extension BinaryPlistReader {
    /// How many objects away from its container a value may lie and still be taken for the
    /// container's own (written with it) rather than shared with earlier elements.
    static let ownValueDistance: UInt64 = 64

    /// The values of the `selection`'s keys in dictionary `reference`, in the selection's order
    /// (`nil` where absent). When the object is not a dictionary, `nil` and its type name.
    ///
    /// Only those values are built; everything else below the object is checked as
    /// ``walk(_:node:shapeDepth:check:walk:)`` checks it, so that a load that reads every element
    /// this way has checked all of them (``check(_:leavingToTheLoad:walk:)`` leaves them to it).
    func selectedValues(
        _ reference: UInt64, selection: PropertyListKeySelection, walk: inout BinaryWalk
    ) throws(PropertyListError) -> (values: [PropertyListValue?]?, typeName: String) {
        let object = try object(reference)
        guard object.kind == 0xD else {
            try self.walk(reference, node: nil, shapeDepth: 0, check: true, walk: &walk)
            return (nil, object.typeName)
        }
        try spendVisit(&walk)
        if walk.ancestors.contains(object.reference) {
            throw .binary(path, offset: object.offset, "object #\(object.reference) contains itself (a reference cycle)")
        }
        walk.ancestors.append(object.reference)
        var values = [PropertyListValue?](repeating: nil, count: selection.keys.count)
        for index in 0..<object.count {
            let keyReference = try self.reference(in: object.payload, at: index)
            let slot = try selection.slot(ofReference: keyReference) { () throws(PropertyListError) in try keyString(keyReference) }
            let valueReference = try self.reference(in: object.payload, at: object.count + index)
            guard slot >= 0 else {
                try self.walk(valueReference, node: nil, shapeDepth: 0, check: true, walk: &walk)
                continue
            }
            let shared = Self.isShared(valueReference, by: reference)
            if shared, let cached = sharedScalars.value(for: valueReference) {
                try spendVisit(&walk)
                values[slot] = cached
                continue
            }
            let found = try value(valueReference, walk: &walk)
            if shared, found.isSmallScalar { sharedScalars.keep(found, for: valueReference) }
            values[slot] = found
        }
        walk.ancestors.removeLast()
        return (values, "dictionary")
    }
}
