/// What one history change did to a record.
public enum ChangeKind: String, Sendable, Codable, CaseIterable {
    /// The record was created.
    case insert
    /// Some of the record's properties changed.
    case update
    /// The record was deleted.
    case delete
}
