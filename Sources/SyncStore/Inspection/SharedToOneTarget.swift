/// Several records naming one target through a to-one relationship whose inverse is to-one
/// (``StoreInspection/sharedToOneTargets(_:holders:)``).
public struct SharedToOneTarget: Hashable, Sendable {
    /// The global ID they all name.
    public var target: String
    /// The records naming it, sorted by global ID.
    public var records: [InspectedRecord]
}
