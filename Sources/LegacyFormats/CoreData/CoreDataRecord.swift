import ObjectModel

/// One row of a Core Data store, read through its model.
///
/// Global IDs have Core Data's URI form, `x-coredata://<store UUID>/<Entity>/p<primary key>`, so
/// they are stable for a given store and can be matched across records.
///
/// ```swift
/// try reader.forEachRecord(entity: "Book") { record in
///     print(record.globalID, record.values["title"] ?? .null)
///     return true   // keep going
/// }
/// ```
public struct CoreDataRecord: Hashable, Sendable {
    /// The record's exact entity (never an ancestor).
    public var entity: String
    /// The row's `Z_PK`, unique within the entity's root table.
    public var primaryKey: Int64
    /// `x-coredata://<Z_UUID>/<Entity>/p<pk>`.
    public var globalID: String
    /// Stored attribute values by attribute name (transient attributes are absent).
    public var values: AttributeValues
    /// To-one relationships that point somewhere: relationship name → target global ID.
    public var toOne: [String: String]
    /// To-many relationships that the store keeps on this side: many-to-many ones (join tables) and
    /// ordered to-many ones whose inverse is to-one (`Z_FOK_` columns on the children), as target
    /// global IDs; ordered relationships are in their stored order, others by target primary key.
    /// Unordered to-many relationships whose inverse is to-one are absent: derive them from
    /// ``toOne`` on the other side.
    public var toMany: [String: [String]]
    /// For each to-one relationship whose inverse is an ordered to-many: this record's position in
    /// that inverse (Core Data's `Z_FOK_` value; only the order of the values matters).
    public var toOneOrder: [String: Int64] = [:]
    /// Why the row cannot be carried exactly, naming the column and the value (a to-one key that
    /// is text or a fraction, a number its attribute's type cannot hold, text that is not UTF-8,
    /// …); `nil` for a record whose every value was read exactly. A migration rejects such a
    /// record rather than carry it changed.
    public var problem: String?

    /// Creates a record.
    public init(
        entity: String, primaryKey: Int64, globalID: String, values: AttributeValues = [:],
        toOne: [String: String] = [:], toMany: [String: [String]] = [:]
    ) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.globalID = globalID
        self.values = values
        self.toOne = toOne
        self.toMany = toMany
    }
}
