/// One fix in a ``RepairPlan``: the finding it answers and exactly what it will change.
///
/// Fields other than `code`, `action`, `globalIDs` and `description` are present only for the
/// actions that use them (absent fields are left out of JSON).
public struct RepairFix: Codable, Sendable, Hashable {
    /// The finding code this fix answers.
    public var code: CheckCode
    /// What the fix does.
    public var action: RepairAction
    /// The entity concerned.
    public var entity: String?
    /// The records changed or removed, sorted.
    public var globalIDs: [String]
    /// For a merge: the record kept.
    public var keeper: String?
    /// For a merge: the duplicates deleted after their links moved to ``keeper``.
    public var removed: [String]?
    /// The relationship concerned.
    public var property: String?
    /// For a join row: its table.
    public var table: String?
    /// For a join row: its `owner` value.
    public var owner: String?
    /// For a join row: its `target` value; for a reference: what it pointed at.
    public var target: String?
    /// For a file: its content address.
    public var blobHash: String?
    /// For a file or a lock: its path.
    public var file: String?
    /// One sentence saying what the fix does and why this choice.
    public var description: String

    /// Creates a fix.
    public init(code: CheckCode, action: RepairAction, entity: String? = nil, globalIDs: [String] = [], description: String) {
        self.code = code
        self.action = action
        self.entity = entity
        self.globalIDs = globalIDs.sorted()
        self.description = description
    }
}
