import Foundation
import StoreMaintenance
import Testing

@Suite struct StoreLockTests {
    let folder: URL
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func writeLock(for store: String, pid: Int32, host: String = ProcessInfo.processInfo.hostName) throws {
        let owner = StoreLock.Owner(command: "test", host: host, pid: pid, started: "2026-01-01T00:00:00Z")
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: StoreLock.lockPath(for: store)))
    }

    @Test func aLockIsExclusiveAndReleased() throws {
        let store = folder.appendingPathComponent("s.store").path
        let lock = try StoreLock.acquire(for: store, command: "one")
        #expect(StoreLock.status(of: lock.path) == .held(lock.owner))
        let error = try #require(throws: MaintenanceError.self) { try StoreLock.acquire(for: store, command: "two") }
        #expect(error.failureKind == .storeBusy)
        #expect(error.description.contains("locked by one"))
        lock.release()
        #expect(StoreLock.status(of: lock.path) == .absent)
        let again = try StoreLock.acquire(for: store, command: "three")
        #expect(again.tookOverStaleLock == nil)
        again.release()
    }

    @Test func aLockOfADeadProcessIsStaleAndTakenOver() throws {
        let store = folder.appendingPathComponent("s.store").path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        try writeLock(for: store, pid: child.processIdentifier)
        guard case .stale = StoreLock.status(of: StoreLock.lockPath(for: store)) else {
            Issue.record("a lock of an exited process is stale")
            return
        }
        let lock = try StoreLock.acquire(for: store, command: "migrate")
        #expect(lock.tookOverStaleLock?.pid == child.processIdentifier)
        lock.release()
    }

    @Test func aLockOfALiveProcessOrAnotherHostIsHeld() throws {
        let store = folder.appendingPathComponent("s.store").path
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        try writeLock(for: store, pid: sleeper.processIdentifier)
        #expect(throws: MaintenanceError.self) { try StoreLock.acquire(for: store, command: "migrate") }
        try writeLock(for: store, pid: 1, host: "some-other-host")
        guard case .held = StoreLock.status(of: StoreLock.lockPath(for: store)) else {
            Issue.record("a lock from another host is never taken over")
            return
        }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: StoreLock.lockPath(for: store)))
        #expect(StoreLock.status(of: StoreLock.lockPath(for: store)) == .unreadable)
        #expect(throws: MaintenanceError.self) { try StoreLock.acquire(for: store, command: "migrate") }
    }

    /// A process killed while taking the lock leaves at most its draft `<lock>.new-<pid>` (the lock
    /// itself appears whole, by a hard link): the next command removes the draft of the dead process
    /// and takes the lock; a live process's draft is left alone.
    @Test func aDraftLeftByAKilledProcessIsRemovedAndDoesNotBlock() throws {
        let store = folder.appendingPathComponent("s.store").path
        let lockPath = StoreLock.lockPath(for: store)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        let host = ProcessInfo.processInfo.hostName
        let dead = lockPath + ".new-\(child.processIdentifier).\(UUID().uuidString).\(host)"
        let live = lockPath + ".new-\(sleeper.processIdentifier).\(UUID().uuidString).\(host)"
        // A process of another host with the dead process's pid: not ours to judge.
        let elsewhere = lockPath + ".new-\(child.processIdentifier).\(UUID().uuidString).some-other-host"
        for draft in [dead, live, elsewhere] { try Data("{\"comm".utf8).write(to: URL(fileURLWithPath: draft)) }
        let lock = try StoreLock.acquire(for: store, command: "migrate")
        #expect(StoreLock.status(of: lockPath) == .held(lock.owner))
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: elsewhere))
        lock.release()
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [live, elsewhere].map { URL(fileURLWithPath: $0).lastPathComponent }.sorted(), "the own draft is gone once linked")
    }

    /// Threads of one process racing for one lock: exactly one takes it, every other is told the
    /// store is busy (a shared draft name once let one thread remove another's draft).
    @Test func threadsRacingForTheLockGetItOnceAndOthersAreBusy() throws {
        let store = folder.appendingPathComponent("s.store").path
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                _ = try StoreLock.acquire(for: store, command: "racer \(index)")  // kept: never released here
                outcomes.add("took")
            } catch let error as MaintenanceError {
                outcomes.add(error.failureKind == .storeBusy ? "busy" : "other: \(error)")
            } catch {
                outcomes.add("other: \(error)")
            }
        }
        let all = outcomes.all
        #expect(all.filter { $0 == "took" }.count == 1, "\(all)")
        #expect(all.filter { $0 == "busy" }.count == 7, "\(all)")
        let drafts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".new-") }
        #expect(drafts.isEmpty)
    }
}

/// Results gathered from several threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
