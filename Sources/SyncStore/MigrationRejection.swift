/// A source record a migration did not write, and why (kept in `sk_rejected`, committed with its batch).
public struct MigrationRejection: Hashable, Sendable, Codable {
    /// The stream it came from.
    public var stream: String
    /// Its position in the source (an array index, a primary key).
    public var position: Int64
    /// The entity it was meant for.
    public var entity: String
    /// Why it was rejected, naming the value or reference at fault.
    public var reason: String

    /// Creates a rejection.
    public init(stream: String, position: Int64, entity: String, reason: String) {
        self.stream = stream
        self.position = position
        self.entity = entity
        self.reason = reason
    }
}
