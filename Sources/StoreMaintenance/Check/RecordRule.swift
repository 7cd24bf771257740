import SyncStore

/// One per-record rule a record detector has the store evaluate over an entity table: the test,
/// and what a finding says when a record breaks it.
struct RecordRule {
    /// The code of the finding when the test fails.
    var code: CheckCode
    /// The entity that declares the property (the rule covers its sub-entities too).
    var entity: String
    /// The property concerned, if any.
    var property: String?
    /// The test the store evaluates.
    var test: RecordTest
    /// Bounds and pattern reported with the finding.
    var minimum: String?
    /// See ``minimum``.
    var maximum: String?
    /// See ``minimum``.
    var pattern: String?
    /// The message, from the record's exact entity, its global ID and the value as text.
    var message: (_ entity: String, _ globalID: String, _ value: String?) -> String
    /// The hint.
    var hint: String
}
