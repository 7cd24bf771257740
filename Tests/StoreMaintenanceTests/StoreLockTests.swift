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
}
