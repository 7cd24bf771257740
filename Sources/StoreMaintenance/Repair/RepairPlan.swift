/// What `repair` will do to a store: the fixes in the order they are applied, and the findings it leaves.
public struct RepairPlan: Codable, Sendable, Hashable {
    /// The fixes, in the order they are applied.
    public var fixes: [RepairFix]
    /// The findings no fix answers.
    public var leftovers: [RepairLeftover]
    /// Findings not considered because `--only` left their code out.
    public var ignored: Int

    /// Creates a plan.
    public init(fixes: [RepairFix], leftovers: [RepairLeftover], ignored: Int = 0) {
        self.fixes = fixes
        self.leftovers = leftovers
        self.ignored = ignored
    }

    /// Whether the plan changes nothing.
    public var isEmpty: Bool { fixes.isEmpty }
}
