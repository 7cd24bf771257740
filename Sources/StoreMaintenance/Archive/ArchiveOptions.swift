import Foundation

/// How `storekeep archive` runs.
public struct ArchiveOptions: Sendable {
    /// Say what would be archived; write nothing.
    public var dryRun: Bool
    /// Only logs last written longer ago than this are archived.
    public var olderThan: TimeInterval?
    /// Peers that have not synced for longer than this are reported (never forgotten by `archive`
    /// itself: `storekeep peers forget` does that).
    public var forgetAfter: TimeInterval?
    /// The folder the archive goes to; `<namespace>/archives` when `nil`.
    public var destination: String?
    /// How long to wait for the store's lock.
    public var lockTimeout: Double

    /// Creates options.
    public init(dryRun: Bool = false, olderThan: TimeInterval? = nil, forgetAfter: TimeInterval? = nil, destination: String? = nil, lockTimeout: Double = 120) {
        self.dryRun = dryRun
        self.olderThan = olderThan
        self.forgetAfter = forgetAfter
        self.destination = destination
        self.lockTimeout = lockTimeout
    }
}
