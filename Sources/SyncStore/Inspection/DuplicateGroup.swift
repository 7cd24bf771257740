/// Records that share the values of a key (``StoreInspection/duplicateGroups(in:holders:key:seedsOnly:)``).
public struct DuplicateGroup: Hashable, Sendable {
    /// The values they share, one per key property, in the key's order.
    public var values: [InspectedValue]
    /// The records, sorted by global ID.
    public var records: [InspectedRecord]
}
