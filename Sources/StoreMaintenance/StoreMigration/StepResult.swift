import SyncStore

/// What a step (or a chain of steps) makes of one record.
public enum StepResult: Hashable, Sendable {
    /// The record as the next version holds it.
    case record(ImportRecord)
    /// The record cannot be carried over (a value a declared conversion cannot convert).
    case rejected(String)
}
