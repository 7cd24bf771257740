/// One relationship of one record: what ``SaveRehearsal`` reports as changed.
public struct RelationshipSlot: Hashable, Sendable {
    /// The record.
    public var record: GlobalID
    /// Its exact entity.
    public var entity: String
    /// The relationship's name.
    public var relationship: String

    /// Creates a slot.
    public init(record: GlobalID, entity: String, relationship: String) {
        self.record = record
        self.entity = entity
        self.relationship = relationship
    }
}
