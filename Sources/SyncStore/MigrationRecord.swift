import Foundation

/// One run of a migration as the store's migration history keeps it (like Flyway's schema history).
public struct MigrationRecord: Hashable, Sendable, Codable {
    /// The row's ID in `sk_migration`.
    public var id: Int64
    /// What identifies the same migration run again: source fingerprint, mapping checksum, target model hash.
    public var key: String
    /// The migration's version label (for example the target model version).
    public var version: String
    /// A sentence describing it.
    public var description: String
    /// The source, as given.
    public var source: String
    /// The checksum of the mapping or step files applied.
    public var checksum: String
    /// When it started.
    public var started: Date
    /// When it finished, or `nil` while unfinished (killed, or still running).
    public var finished: Date?
    /// Records written.
    public var rows: Int
    /// Records rejected.
    public var rejected: Int
    /// Whether it finished successfully (`nil` while unfinished).
    public var success: Bool?
}
