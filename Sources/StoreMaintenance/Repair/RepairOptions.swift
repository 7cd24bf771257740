import Foundation

/// How `repair` runs.
public struct RepairOptions: Sendable {
    /// Only findings of these codes are repaired; `nil` means every code repair knows.
    public var only: Set<CheckCode>?
    /// Plan and print, change nothing (no lock, no backup, no writes).
    public var dryRun: Bool
    /// Make a consistent backup before changing anything.
    public var backup: Bool
    /// An orphaned blob file modified less than this many seconds ago is kept: a writer may be about
    /// to commit the row that refers to it.
    public var orphanGracePeriod: TimeInterval
    /// Plan from a content-only check (``CheckOptions/contentOnly``): what `sync` does after an import.
    public var contentOnlyCheck = false

    /// The default grace period for orphaned files: 15 minutes.
    public static let defaultOrphanGracePeriod: TimeInterval = 15 * 60

    /// Creates options.
    public init(only: Set<CheckCode>? = nil, dryRun: Bool = false, backup: Bool = true,
                orphanGracePeriod: TimeInterval = RepairOptions.defaultOrphanGracePeriod) {
        self.only = only
        self.dryRun = dryRun
        self.backup = backup
        self.orphanGracePeriod = orphanGracePeriod
    }
}
