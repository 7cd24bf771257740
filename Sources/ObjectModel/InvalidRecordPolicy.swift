/// What `repair` does with a record that breaks the model's rules.
///
/// Read from the entity's `userInfo` key `storekeep.invalidRecordPolicy`.
public enum InvalidRecordPolicy: String, Codable, Sendable, CaseIterable {
    /// Delete the invalid record.
    case delete
    /// Nullify the relationships that make it invalid.
    case nullify
    /// Keep it as it is and report it (the default: nothing destructive by default).
    case keep
}
