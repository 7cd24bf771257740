/// Where one persistent property of an entity lives in a store: one row of the store's column map
/// (`docs/format.md`, "where each property lives").
///
/// Callers name tables and columns only through these values (and ``StoreLayoutDescription``),
/// never by building names themselves: the layout is the store's to change.
///
/// ```swift
/// if let title = layout.storage(of: "title", of: "Speech"), title.kind == .attribute {
///     print(title.table, title.column)   // e_Speech a_title
/// }
/// ```
public struct StoredProperty: Hashable, Sendable {
    /// How a property is stored.
    public enum Kind: String, Hashable, Sendable {
        /// ``StoredProperty/column`` of ``StoredProperty/table`` holds the value.
        case attribute
        /// ``StoredProperty/column`` of ``StoredProperty/table`` holds the target's global ID.
        case toOne = "to-one"
        /// The members are the rows of ``StoredProperty/table`` whose ``StoredProperty/column`` holds the record.
        case toManyInverse = "to-many-inverse"
        /// Rows of the join table ``StoredProperty/table`` whose ``StoredProperty/column`` (one of
        /// its two sides) holds the record.
        case join
    }

    /// The side of a join table a record is named on.
    public enum JoinSide: String, Hashable, Sendable {
        /// The side of the relationship that names the table.
        case owner
        /// The other side.
        case target

        /// The column that holds this side's global IDs.
        public var column: String { rawValue }
        /// The other side.
        public var other: JoinSide { self == .owner ? .target : .owner }
    }

    /// The entity (sub-entities have their own rows for inherited properties).
    public var entity: String
    /// The property.
    public var property: String
    /// How it is stored.
    public var kind: Kind
    /// The table.
    public var table: String
    /// The column.
    public var column: String
    /// The order column, when the relationship is ordered.
    public var orderColumn: String?

    /// Creates a description.
    public init(entity: String, property: String, kind: Kind, table: String, column: String, orderColumn: String?) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.table = table
        self.column = column
        self.orderColumn = orderColumn
    }

    /// For a join row, the side this property's records are named on (`nil` for other kinds, or
    /// a column that is neither side).
    public var joinSide: JoinSide? { kind == .join ? JoinSide(rawValue: column) : nil }

    /// For a join row, the join table's other column.
    var otherJoinColumn: String { column == JoinSide.owner.column ? JoinSide.target.column : JoinSide.owner.column }
}
