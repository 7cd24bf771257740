import Foundation

extension StorekeepProcess {
    /// Starts the binary with `arguments` (output discarded), sends SIGKILL after `delay` seconds if
    /// it is still running, and waits for it to end. Returns whether it was killed mid-way.
    @discardableResult
    static func runAndKill(_ arguments: [String], after delay: TimeInterval) throws -> Bool {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        process.waitUntilExit()
        return killed
    }
}
