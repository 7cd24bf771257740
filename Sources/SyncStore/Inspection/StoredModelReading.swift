import ObjectModel

/// What a store's copy of its own model (`docs/format.md`, "the model, inside the store") turned
/// out to be when read: ``StoreInspection/storedModel()``.
///
/// ```swift
/// if case .model(let model, let recordedHash) = try inspection.storedModel() { … }
/// ```
public enum StoredModelReading: Hashable, Sendable {
    /// The table that holds it is missing.
    case tableMissing
    /// The table holds this many rows instead of one.
    case rowCount(Int)
    /// The one row holds no model definition storekeep can read.
    case unreadable
    /// The model, with the version hash recorded beside it (`nil` when that is not text).
    case model(ManagedModel, recordedHash: String?)
}
