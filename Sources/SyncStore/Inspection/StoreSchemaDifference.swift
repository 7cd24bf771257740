/// One way a store's tables or column map disagree with the layout its model gives
/// (``StoreInspection/reviewSchema(against:_:)``). What such a difference concerns is left out of
/// the other queries' reach: a caller does not look for records in a table that is not there.
///
/// ```swift
/// let layout = try inspection.reviewSchema(against: model) { difference in
///     print(difference.table, difference.entity ?? "-", difference.property ?? "-")
/// }
/// ```
public enum StoreSchemaDifference: Hashable, Sendable {
    /// The table of a root entity's family is missing.
    case entityTableMissing(entity: String, table: String)
    /// The table of a root entity's family lacks some of the columns every entity table has (sorted).
    case entityTableColumnsMissing(entity: String, table: String, columns: [String])
    /// The column map itself (``StoreLayoutDescription/columnTable``) is missing.
    case columnMapMissing(table: String)
    /// The column map has no row for a persistent property of the model.
    case propertyNotMapped(entity: String, property: String, table: String)
    /// The column map stores a property in a way that does not fit the model (an attribute as a
    /// relationship, a to-one as a to-many).
    case propertyKindUnfit(entity: String, property: String, kind: StoredProperty.Kind, table: String)
    /// The table the column map names for a property is missing.
    case propertyTableMissing(entity: String, property: String, table: String)
    /// The table the column map names for a property lacks a column it names.
    case propertyColumnMissing(entity: String, property: String, table: String, column: String)

    /// The entity concerned, if any.
    public var entity: String? {
        switch self {
        case .entityTableMissing(let entity, _), .entityTableColumnsMissing(let entity, _, _): return entity
        case .columnMapMissing: return nil
        case .propertyNotMapped(let entity, _, _), .propertyKindUnfit(let entity, _, _, _), .propertyTableMissing(let entity, _, _),
             .propertyColumnMissing(let entity, _, _, _):
            return entity
        }
    }

    /// The property concerned, if any.
    public var property: String? {
        switch self {
        case .entityTableMissing, .entityTableColumnsMissing, .columnMapMissing: return nil
        case .propertyNotMapped(_, let property, _), .propertyKindUnfit(_, let property, _, _), .propertyTableMissing(_, let property, _),
             .propertyColumnMissing(_, let property, _, _):
            return property
        }
    }

    /// The table concerned: the entity table, the column map, or the table the column map names.
    public var table: String {
        switch self {
        case .entityTableMissing(_, let table), .entityTableColumnsMissing(_, let table, _), .columnMapMissing(let table),
             .propertyNotMapped(_, _, let table), .propertyKindUnfit(_, _, _, let table), .propertyTableMissing(_, _, let table),
             .propertyColumnMissing(_, _, let table, _):
            return table
        }
    }
}
