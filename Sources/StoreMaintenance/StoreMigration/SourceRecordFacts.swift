/// What the planning of a migration knows of the records of the store it reads, for the inference
/// rules that, in Core Data, depend on the records: a new required attribute without a default
/// fails Core Data's migration only when its entity has records, and an attribute that becomes
/// required without a default fails it only when a record holds no value for it.
///
/// Only the store's own version has records to ask about: a step further down a chain gets
/// ``unknown``, where every entity may have records and every attribute empty values.
///
/// ```swift
/// let facts = SourceRecordFacts(emptyEntities: ["Draft"]) { entity, attribute in
///     try reader.emptyValueCount(of: attribute, entity: entity)   // records holding NULL
/// }
/// try facts.emptyValueCount(of: "title", entity: "Note")   // 0: Note.title may become required
/// ```
public struct SourceRecordFacts {
    /// Entities of the store's version that have no records.
    public var emptyEntities: Set<String>
    /// The records of each entity of the store's version, where known (for messages).
    public var recordCounts: [String: Int]
    /// Counts the records of an entity (exactly that entity, not its sub-entities) that hold no
    /// value for an attribute; `nil` when the attribute cannot be counted.
    private let countEmpty: ((_ entity: String, _ attribute: String) throws -> Int?)?

    /// Facts about a store's records.
    ///
    /// - Parameters:
    ///   - emptyEntities: the entities of the store's version without records.
    ///   - recordCounts: the records of each entity (exactly that entity), where known.
    ///   - emptyValueCount: counts the records of an entity that hold no value for an attribute
    ///     (`nil`: the count is not known); without it, no count is known.
    public init(emptyEntities: Set<String> = [], recordCounts: [String: Int] = [:],
                emptyValueCount: ((_ entity: String, _ attribute: String) throws -> Int?)? = nil) {
        self.emptyEntities = emptyEntities
        self.recordCounts = recordCounts
        self.countEmpty = emptyValueCount
    }

    /// Nothing known: every entity may have records, every attribute empty values.
    public static var unknown: SourceRecordFacts { SourceRecordFacts() }

    /// How many records of `entity` hold no value for `attribute`: 0 for an entity without
    /// records, `nil` when not known.
    ///
    /// - Throws: what the count throws (the store cannot be read).
    public func emptyValueCount(of attribute: String, entity: String) throws -> Int? {
        if emptyEntities.contains(entity) { return 0 }
        return try countEmpty?(entity, attribute)
    }
}
