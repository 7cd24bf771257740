import Foundation
import GRDB

/// Where a crash test kills a migration: a state of its target, observed while the process is
/// stopped, rather than a delay that lands before, inside or after the work depending on the
/// machine's load.
enum MigrationKillPoint: Sendable, CustomStringConvertible {
    /// As soon as the new store appears on disk: its temporary `.NAME.creating-PID` file while it
    /// is being made, or the store itself when its making was quicker than a look; before any batch.
    case storeCreation
    /// Once the unfinished run in the target has committed at least this many records (written or
    /// rejected, over all its streams and earlier killed attempts).
    case recordsCommitted(Int)

    var description: String {
        switch self {
        case .storeCreation: return "when the new store appears"
        case .recordsCommitted(let count): return "after \(count) records committed"
        }
    }
}

extension StorekeepProcess {
    /// Starts the binary with `arguments`, a migration into `target`, and SIGKILLs it at `point`.
    ///
    /// The process is stopped (SIGSTOP) before each look at the target, so that what is read stays
    /// true until the kill: it is killed only when the point is reached and the run is not
    /// finished, and otherwise continued (SIGCONT) and looked at again a moment later. The target
    /// is read through a read-only connection closed before the process runs on, so the looks never
    /// make the migration wait for a lock. Returns whether the kill landed inside the run (`false`:
    /// the process ended before the point was reached).
    static func runAndKill(_ arguments: [String], migratingInto target: String, at point: MigrationKillPoint) throws -> Bool {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        while process.isRunning {
            kill(pid, SIGSTOP)
            waitUntilStopped(pid, process: process)
            guard process.isRunning else { break }
            if reached(point, in: target, pid: pid) {
                kill(pid, SIGKILL)
                process.waitUntilExit()
                return true
            }
            kill(pid, SIGCONT)
            // Pacing only: the kill depends on what the target holds, not on this pause.
            usleep(2_000)
        }
        process.waitUntilExit()
        return false
    }

    /// Waits until the kernel reports `pid` stopped (Linux's `/proc/PID/stat` state `T`) or gone.
    private static func waitUntilStopped(_ pid: Int32, process: Process) {
        let statPath = "/proc/\(pid)/stat"
        guard FileManager.default.fileExists(atPath: statPath) else { return }
        while process.isRunning {
            guard let stat = try? String(contentsOfFile: statPath, encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return }
            let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
            if state == "T" || state == "t" || state == "Z" || state == "X" { return }
            sched_yield()
        }
    }

    /// Whether the target of process `pid` shows `point`; `false` while it cannot be read (not
    /// created yet, locked by a commit in progress, tables not made yet).
    private static func reached(_ point: MigrationKillPoint, in target: String, pid: Int32) -> Bool {
        let url = URL(fileURLWithPath: target)
        let making = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).creating-\(pid)").path
        if case .storeCreation = point {
            return FileManager.default.fileExists(atPath: making) || FileManager.default.fileExists(atPath: target)
        }
        guard case .recordsCommitted(let wanted) = point, FileManager.default.fileExists(atPath: target) else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: target, configuration: configuration) else { return false }
        defer { try? queue.close() }
        let committed = try? queue.read { db -> Int? in
            guard let run = try Int64.fetchOne(db, sql: "SELECT id FROM sk_migration WHERE finished IS NULL ORDER BY id DESC LIMIT 1") else {
                return nil
            }
            return try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(rows + rejected), 0) FROM sk_checkpoint WHERE migration = ?", arguments: [run])
        }
        return (committed ?? nil).map { $0 >= wanted } ?? false
    }
}
