/// One per-record condition a record detector evaluates in SQL over an entity table.
struct RecordRule {
    /// The code of the finding when the condition holds.
    var code: CheckCode
    /// The entity that declares the property (the rule covers its sub-entities too).
    var entity: String
    /// The property concerned, if any.
    var property: String?
    /// The SQL condition over the table's columns, true for a record that breaks the rule.
    var condition: String
    /// The column whose value the finding reports, if any.
    var valueColumn: String?
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
