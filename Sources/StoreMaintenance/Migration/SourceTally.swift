/// One part of a source (a table, an array) counted as a whole, independently of how its streams
/// read it, and the streams that read it: after a complete run, every item of the part is either
/// written or rejected by one of them, so their records read (written plus rejected) must add up
/// to ``count``. A migration checks this before it says "verified", so that a row no stream
/// reads is found rather than lost.
///
/// ```swift
/// SourceTally(part: "table ZBOOK", count: 7, streams: ["Book", "ZBOOK rows of no entity"])
/// ```
public struct SourceTally: Hashable, Sendable {
    /// The part, in a few words that name it in the source ("table ZBOOK", "array Speeches").
    public var part: String
    /// How many items the part holds, counted when the tally is taken.
    public var count: Int
    /// The names of the streams that read it.
    public var streams: [String]

    /// Creates a tally.
    public init(part: String, count: Int, streams: [String]) {
        self.part = part
        self.count = count
        self.streams = streams
    }
}
