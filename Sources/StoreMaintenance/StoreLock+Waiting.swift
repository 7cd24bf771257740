import Foundation
import ObjectModel

extension StoreLock {
    /// Takes the lock of `store` for `command`, waiting up to `timeout` seconds while another live
    /// process holds it (so that two runs of the same command on one store take turns).
    ///
    /// - Throws: ``MaintenanceError`` `.storeBusy` when the lock is still held after `timeout`.
    public static func acquire(for store: String, command: String, waitingUpTo timeout: Double) throws -> StoreLock {
        let deadline = Date().addingTimeInterval(max(0, timeout))
        var pause = 0.01
        while true {
            do {
                return try acquire(for: store, command: command)
            } catch let error as MaintenanceError where error.failureKind == .storeBusy && Date() < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.5)
            }
        }
    }
}
