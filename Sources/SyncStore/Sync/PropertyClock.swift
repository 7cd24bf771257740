/// Who last set a property (or a to-many membership), and when: what a merge compares.
///
/// Clocks are ordered by rank, then hybrid timestamp, then peer ID: an update outranks an insert
/// whatever their timestamps (a record inserted again elsewhere, such as a seed record seeded on a
/// second device, never overwrites what a user changed), and between two changes of the same rank
/// the later one wins, ties broken by the larger peer ID (`docs/container.md`, "Merging").
public struct PropertyClock: Hashable, Comparable, Sendable {
    /// What kind of change set the value.
    public enum Rank: Int, Sendable, Comparable, CaseIterable {
        /// Written by an insert (or an insert of a record that already existed, merged in).
        case insert = 0
        /// Written by an update.
        case update = 1

        /// Orders ranks.
        public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The kind of change.
    public var rank: Rank
    /// When.
    public var timestamp: HybridTimestamp
    /// The peer that made the change.
    public var peer: String

    /// Creates a clock.
    public init(rank: Rank, timestamp: HybridTimestamp, peer: String) {
        self.rank = rank
        self.timestamp = timestamp
        self.peer = peer
    }

    /// Before every real clock: what a property whose history is gone compares as.
    public static let origin = PropertyClock(rank: .insert, timestamp: .zero, peer: "")

    /// Orders clocks: rank, then timestamp, then peer ID.
    public static func < (lhs: PropertyClock, rhs: PropertyClock) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.peer < rhs.peer
    }
}
