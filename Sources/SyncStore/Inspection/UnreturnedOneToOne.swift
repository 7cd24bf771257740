/// One side of a one-to-one pair whose target does not point back at it
/// (``StoreInspection/forEachUnreturnedOneToOne(_:inverse:holders:targetTable:targets:_:)``).
public struct UnreturnedOneToOne: Hashable, Sendable {
    /// The record's global ID.
    public var globalID: String
    /// Its exact entity.
    public var entity: String
    /// The target it names.
    public var target: String
    /// What the target's inverse names instead; `nil` when it names nothing.
    public var inverseTarget: String?
}
