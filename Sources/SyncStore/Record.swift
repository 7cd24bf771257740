import Foundation
import ObjectModel

/// A snapshot of one record as read from a store.
public struct Record: Hashable, Sendable {
    /// The record's exact entity.
    public var entity: String
    /// The record's global ID.
    public var globalID: GlobalID
    /// Every persistent attribute of the entity (inherited ones included); `.null` when empty.
    /// Binary values kept in blob files are read back in full.
    public var values: [String: AttributeValue]
    /// The to-one relationships that point somewhere, by name.
    public var toOne: [String: GlobalID]
    /// When the record was created.
    public var createdAt: Date
    /// When the record was last updated, or `nil` when it never was since it was inserted.
    public var updatedAt: Date?
    /// The seed set that inserted it, when it was seeded.
    public var seed: SeedMark?
}
