/// Where the members of one relationship are kept, seen from the relationship's source.
///
/// - To-one relationships are a column of the source's table holding the target's global ID.
/// - A to-many relationship whose inverse is to-one is not stored on its own: its members are the
///   records whose inverse column holds the source (ordered by the inverse's order column when
///   the to-many relationship is ordered).
/// - Many-to-many relationships, and to-many relationships without an inverse, use a join table.
enum RelationshipStorage: Hashable, Sendable {
    /// A column of `table` holds the target; `orderColumn` holds this record's position in the
    /// inverse ordered to-many relationship, when there is one.
    case column(table: String, column: String, orderColumn: String?)
    /// The members are the rows of `table` whose `column` holds the source, ordered by `orderColumn` if any.
    case inverseColumn(table: String, column: String, orderColumn: String?)
    /// Rows of the join `table` whose `sourceColumn` holds the source; `targetColumn` holds members,
    /// `sourceOrderColumn` the members' positions (when ordered), `targetOrderColumn` the source's
    /// position in each member's inverse relationship (when that one is ordered).
    case join(table: String, sourceColumn: String, targetColumn: String, sourceOrderColumn: String?, targetOrderColumn: String?)
}
