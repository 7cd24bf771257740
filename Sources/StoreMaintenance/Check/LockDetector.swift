/// The store's lock file (`<store>.lock`): left by a process that no longer exists, or unreadable.
enum LockDetector {
    /// Adds a finding for a stale or unreadable lock; a lock held by a live process is not a finding.
    static func check(_ context: CheckContext, status: StoreLock.Status) {
        let file = StoreLock.lockPath(for: context.path)
        switch status {
        case .absent, .held:
            return
        case .stale(let owner):
            context.add(.lockStale) {
                var finding = CheckFinding(
                    code: .lockStale,
                    message: "\(file) was left by \(owner.command) (pid \(owner.pid) on \(owner.host), since \(owner.started)), which no longer runs",
                    hint: "the next storekeep command that changes the store takes it over; if that command was a migration, run it again to finish it")
                finding.file = file
                return finding
            }
        case .unreadable:
            context.add(.lockUnreadable) {
                var finding = CheckFinding(code: .lockUnreadable, message: "\(file) exists but cannot be read as a storekeep lock",
                                           hint: "make sure no storekeep command is running on the store, then remove the file")
                finding.file = file
                return finding
            }
        }
    }
}
