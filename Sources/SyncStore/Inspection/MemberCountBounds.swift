/// The member counts a to-many relationship must not have, for
/// ``StoreInspection/forEachMemberCount(of:ownerTable:holders:outside:_:)``.
///
/// ```swift
/// // required, at most 5: no record may have 0, nor more than 5
/// MemberCountBounds(fewerThan: 1, nonEmptyFewerThan: nil, moreThan: 5)
/// ```
public struct MemberCountBounds: Hashable, Sendable {
    /// Any count below this is out of bounds.
    public var fewerThan: Int?
    /// A count above zero and below this is out of bounds (an optional relationship with a minimum).
    public var nonEmptyFewerThan: Int?
    /// Any count above this is out of bounds.
    public var moreThan: Int?

    /// Creates bounds; `nil` leaves a bound out.
    public init(fewerThan: Int?, nonEmptyFewerThan: Int?, moreThan: Int?) {
        self.fewerThan = fewerThan
        self.nonEmptyFewerThan = nonEmptyFewerThan
        self.moreThan = moreThan
    }

    /// The SQL condition over the count `n`, or `nil` when no count is out of bounds.
    var condition: String? {
        var conditions: [String] = []
        if let fewerThan { conditions.append("n < \(fewerThan)") }
        if let nonEmptyFewerThan { conditions.append("(n > 0 AND n < \(nonEmptyFewerThan))") }
        if let moreThan { conditions.append("n > \(moreThan)") }
        return conditions.isEmpty ? nil : conditions.joined(separator: " OR ")
    }
}
