/// Values of one column of storekeep's own tables that storekeep never writes there
/// (``StoreInspection/forEachDamagedValue(_:)``): commands that read the table refuse such a store.
public struct DamagedStoreValues: Hashable, Sendable {
    /// What is wrong with them.
    public enum Problem: Hashable, Sendable {
        /// Values of another storage class than `allowed` (text where a sequence number belongs);
        /// `example` is the first such value, when it could be read again.
        case otherKind(example: InspectedValue?, allowed: [InspectedValue.Kind])
        /// Text that is not UTF-8 or holds a NUL character (read back, it would come out changed).
        case damagedText
    }

    /// The table.
    public var table: String
    /// The column.
    public var column: String
    /// The column that names a row of the table.
    public var keyColumn: String
    /// How many rows hold such a value.
    public var rows: Int
    /// The ``keyColumn`` value of the first of them.
    public var firstKey: InspectedValue
    /// What is wrong.
    public var problem: Problem
}
