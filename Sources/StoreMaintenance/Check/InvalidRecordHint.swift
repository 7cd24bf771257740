import ObjectModel

/// The hint of a finding about an invalid record, which says what `storekeep repair` will do with
/// it under the entity's ``InvalidRecordPolicy``.
enum InvalidRecordHint {
    /// The hint for an invalid value or a missing link of a record of an entity with `policy`.
    static func text(for policy: InvalidRecordPolicy) -> String {
        switch policy {
        case .delete:
            return "correct it in the app, or run `storekeep repair`, which deletes the record (the entity's invalidRecordPolicy is 'delete')"
        case .nullify:
            return "correct it in the app: `storekeep repair` keeps the record (the entity's invalidRecordPolicy is 'nullify', which only empties broken references)"
        case .keep:
            return "correct it in the app: `storekeep repair` keeps the record (the entity's invalidRecordPolicy is 'keep'; 'delete' in the model lets repair delete such records)"
        }
    }
}
