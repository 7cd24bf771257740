/// One row of `sk_column`: where a persistent property of an entity lives (see `docs/format.md`).
struct StoredColumn: Hashable, Sendable {
    /// How the property is stored.
    enum Kind: String, Sendable {
        /// `column` of `table` holds the value.
        case attribute
        /// `column` of `table` holds the target's global ID.
        case toOne = "to-one"
        /// The members are the rows of `table` whose `column` holds the record.
        case toManyInverse = "to-many-inverse"
        /// Rows of the join `table` whose `column` (`owner` or `target`) holds the record.
        case join
    }

    /// The entity (sub-entities have their own rows for inherited properties).
    var entity: String
    /// The property.
    var property: String
    /// How it is stored.
    var kind: Kind
    /// The table.
    var table: String
    /// The column.
    var column: String
    /// The order column, when the relationship is ordered.
    var orderColumn: String?

    /// For a join row, the join table's other column.
    var otherJoinColumn: String { column == "owner" ? "target" : "owner" }
}
