/// A finding repair does not fix, with the reason and what the operator can do.
public struct RepairLeftover: Codable, Sendable, Hashable {
    /// The finding's code.
    public var code: CheckCode
    /// The entity concerned.
    public var entity: String?
    /// The records concerned, sorted.
    public var globalIDs: [String]
    /// Why repair leaves it.
    public var reason: String
    /// What the operator can do.
    public var hint: String
    /// For a file: its path.
    public var file: String?

    /// Creates a leftover.
    public init(code: CheckCode, entity: String?, globalIDs: [String], reason: String, hint: String) {
        self.code = code
        self.entity = entity
        self.globalIDs = globalIDs.sorted()
        self.reason = reason
        self.hint = hint
    }
}
