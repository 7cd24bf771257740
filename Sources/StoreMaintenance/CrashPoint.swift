import Foundation
import ObjectModel

/// A testing hook for kill-safety tests: the steps between the durable writes of `sync`, `rekey`
/// and `archive` (and the two steps of every durable file write, ``DurableFile/Step``) are crash
/// points, where a test can stop the run.
///
/// - With `STOREKEEP_CRASH_AFTER=N` in the environment, the process kills itself with SIGKILL when
///   it reaches its N-th crash point, so that a test can stop it at every point in turn with a real
///   SIGKILL. `STOREKEEP_CRASH_TRACE=1` prints each point reached on stderr (to count them).
/// - In-process (the sync simulation), a ``Budget`` bound with `CrashPoint.$budget.withValue`
///   makes the N-th point throw ``Simulated``: the run stops where it stands, as a kill would stop
///   it (what was committed or published stays; an open SQLite transaction is rolled back).
///
/// Without either, reaching a point does nothing. The steps of an import's blob files are
/// reached on the thread that writes them (`BackgroundBlobFiles`), where a task's ``Budget`` is not
/// seen: only `STOREKEEP_CRASH_AFTER` stops a run there.
enum CrashPoint {
    private static let limit: Int? = ProcessInfo.processInfo.environment["STOREKEEP_CRASH_AFTER"].flatMap { Int($0) }
    private static let trace = ProcessInfo.processInfo.environment["STOREKEEP_CRASH_TRACE"] == "1"
    nonisolated(unsafe) private static var reached = 0
    private static let lock = NSLock()

    /// The crash points of the current task, in-process (tests).
    @TaskLocal static var budget: Budget?

    /// Counts the crash points a task reaches and stops it at the `limit`-th.
    final class Budget: @unchecked Sendable {
        /// The point to stop at (1 is the first).
        let limit: Int
        private let lock = NSLock()
        private var names: [String] = []

        init(stoppingAt limit: Int) { self.limit = limit }

        /// The points reached so far, in order.
        var reached: [String] {
            lock.lock()
            defer { lock.unlock() }
            return names
        }

        fileprivate func spend(_ name: String) throws {
            lock.lock()
            names.append(name)
            let count = names.count
            lock.unlock()
            if count == limit { throw Simulated(point: name, count: count) }
        }
    }

    /// The error a ``Budget`` throws at its point: a simulated kill.
    struct Simulated: Error, CustomStringConvertible {
        let point: String
        let count: Int
        var description: String { "simulated kill at crash point \(count) (\(point))" }
    }

    /// Makes the steps of durable file writes crash points too (once per process).
    static func install() { _ = installed }

    private static let installed: Void = DurableFile.observeSteps { step, _ in try CrashPoint.reach(step.rawValue) }

    /// Marks reaching the point `name`.
    static func reach(_ name: String) throws {
        if let budget { try budget.spend(name) }
        guard limit != nil || trace else { return }
        lock.lock()
        reached += 1
        let count = reached
        lock.unlock()
        if trace { FileHandle.standardError.write(Data("crash point \(count): \(name)\n".utf8)) }
        if let limit, count >= limit { kill(getpid(), SIGKILL) }
    }
}
