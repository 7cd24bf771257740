import Foundation
import ObjectModel

/// One record brought in from elsewhere (a migration source), with its relationships by global ID.
///
/// ```swift
/// ImportRecord(entity: "Speech", globalID: GlobalID("…"), values: ["title": .string("Hi")],
///              toOne: ["type": GlobalID("seed-type-…")])
/// ```
public struct ImportRecord: Hashable, Sendable {
    /// The exact entity (not abstract).
    public var entity: String
    /// The record's global ID (deterministic for a migration, so that a resumed run writes the same IDs).
    public var globalID: GlobalID
    /// Attribute values by name; an attribute left out takes the model's default value, when it has one.
    public var values: AttributeValues
    /// To-one relationships: name → target. Targets are written as given (a migration checks them).
    public var toOne: [String: GlobalID]
    /// This record's position in the ordered to-many inverse of a to-one relationship, by to-one name.
    public var toOneOrder: [String: Int64]
    /// To-many relationships kept in join tables (many-to-many, or without inverse): name → members in order.
    public var toMany: [String: [GlobalID]]
    /// The seed set, when the record is seed data.
    public var seed: SeedMark?

    /// Creates a record to import.
    public init(
        entity: String, globalID: GlobalID, values: AttributeValues = [:], toOne: [String: GlobalID] = [:],
        toOneOrder: [String: Int64] = [:], toMany: [String: [GlobalID]] = [:], seed: SeedMark? = nil
    ) {
        self.entity = entity
        self.globalID = globalID
        self.values = values
        self.toOne = toOne
        self.toOneOrder = toOneOrder
        self.toMany = toMany
        self.seed = seed
    }
}
