import Foundation

/// A testing hook for kill-safety tests: with `STOREKEEP_CRASH_AFTER=N` in the environment, the
/// process kills itself with SIGKILL when it reaches its N-th crash point (the steps between the
/// durable writes of `sync`, `rekey` and `archive`), so that a test can stop it at every point in
/// turn with a real SIGKILL. Without the variable it does nothing. `STOREKEEP_CRASH_TRACE=1` prints
/// each point reached on stderr (to count them).
enum CrashPoint {
    private static let limit: Int? = ProcessInfo.processInfo.environment["STOREKEEP_CRASH_AFTER"].flatMap { Int($0) }
    private static let trace = ProcessInfo.processInfo.environment["STOREKEEP_CRASH_TRACE"] == "1"
    private nonisolated(unsafe) static var reached = 0
    private static let lock = NSLock()

    /// Marks reaching the point `name`.
    static func reach(_ name: String) {
        guard limit != nil || trace else { return }
        lock.lock()
        reached += 1
        let count = reached
        lock.unlock()
        if trace { FileHandle.standardError.write(Data("crash point \(count): \(name)\n".utf8)) }
        if let limit, count >= limit { kill(getpid(), SIGKILL) }
    }
}
