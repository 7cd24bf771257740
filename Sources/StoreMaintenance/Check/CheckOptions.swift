import ObjectModel

/// What a ``StoreChecker`` run checks, and how much it lists.
///
/// ```swift
/// let options = CheckOptions(depth: .full, model: try ModelLoader.load(path: "M.xcdatamodeld", version: nil))
/// ```
public struct CheckOptions: Sendable {
    /// Quick or full.
    public var depth: CheckDepth
    /// The model the store must have been made for; when given and matching, its validation
    /// rules (min/max, regular expressions, which the model hash leaves out) are the ones checked.
    /// When `nil`, the definition kept in the store is used.
    public var model: ManagedModel?
    /// At most this many findings per code, entity and property per store; the rest are counted in
    /// ``StoreCheckReport/omitted``. `nil` lists every finding (what `repair` wants).
    public var findingLimit: Int?
    /// Check the content only: records, relationships, duplicates, history and sync counters;
    /// not SQLite's own check of the file, the blob files, the migrations or the lock (what the
    /// fixes after a sync import need, without reading every page of a large store).
    public var contentOnly = false

    /// Creates options.
    public init(depth: CheckDepth = .quick, model: ManagedModel? = nil, findingLimit: Int? = nil) {
        self.depth = depth
        self.model = model
        self.findingLimit = findingLimit
    }
}
